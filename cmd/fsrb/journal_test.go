package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/pipeline"
)

// A file changed between validation and commit aborts the commit with
// nothing written: not the changed file, not the others. Validation and
// commit run through the API as the CLI runs them, and the file changes in
// between (no failpoint needed).
func TestChangedBetweenValidationAndCommit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		meddle func(root string)
		path   string
	}{
		{"modified", func(root string) { os.WriteFile(filepath.Join(root, "b.txt"), []byte("beta, edited by hand\n"), 0o644) }, "b.txt"},
		{"deleted", func(root string) { os.Remove(filepath.Join(root, "b.txt")) }, "b.txt"},
		{"created", func(root string) { os.WriteFile(filepath.Join(root, "c.txt"), []byte("someone else's\n"), 0o644) }, "c.txt"},
		{"replaced by a link", func(root string) {
			os.Remove(filepath.Join(root, "b.txt"))
			os.Symlink("a.txt", filepath.Join(root, "b.txt"))
		}, "b.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
			state := t.TempDir()
			disk, err := commit.NewDisk(root)
			if err != nil {
				t.Fatal(err)
			}
			patch := core.Parse(twoFiles+"\nc.txt\n<<<<<<< SEARCH\n=======\ngamma\n>>>>>>> REPLACE\n", core.ParseOptions{})
			plan := core.Validate(patch, disk, core.Options{Root: filepath.ToSlash(disk.Root)})
			if !plan.OK() {
				t.Fatal(plan.Problems)
			}
			tc.meddle(disk.Root)
			meddled := tree(t, disk.Root)
			_, err = commit.Commit(disk.Root, plan.Files, commit.Options{StateDir: state})
			var conflict *commit.ConflictError
			switch {
			case tc.name == "replaced by a link":
				// Now two names of one file: refused as such.
				if err == nil || !strings.Contains(err.Error(), "are the same file") {
					t.Fatalf("err = %v, want a same-file refusal", err)
				}
			case !errors.As(err, &conflict) || conflict.Path != tc.path:
				t.Fatalf("err = %v, want a conflict on %s", err, tc.path)
			default:
				p := pipeline.CommitProblem(err)
				if p.Kind != core.KindConflict || !strings.Contains(p.Message, "changed on disk after validation; nothing was written") {
					t.Errorf("problem = %+v", p)
				}
			}
			if diff := cmp.Diff(meddled, tree(t, disk.Root)); diff != "" {
				t.Errorf("the commit wrote something (-before +after):\n%s", diff)
			}
			if entries, _ := filepath.Glob(filepath.Join(state, "*", "2*")); len(entries) != 0 {
				t.Errorf("a journal was left: %v", entries)
			}
		})
	}
}

// fsrb --undo refuses, naming every file that changed since the commit,
// and writes nothing.
func TestUndoListsChangedFiles(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n"})
	env := append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1")
	patch := writePatch(t, twoFiles+"\nc.txt\n<<<<<<< SEARCH\ngamma\n=======\nGAMMA\n>>>>>>> REPLACE\n")
	if code, stdout, stderr := runIn(t, root, env, patch); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("mine\n"), 0o644)
	os.Remove(filepath.Join(root, "c.txt"))
	before := tree(t, root)
	code, _, stderr := runIn(t, root, env, "--undo")
	if code != exitFail {
		t.Fatalf("--undo: exit %d, want 1", code)
	}
	if want := "[ERROR] Undo failed: 2 files changed since fsrb wrote them: a.txt, c.txt; nothing was undone\n"; stderr != want {
		t.Errorf("stderr = %q\nwant     %q", stderr, want)
	}
	if diff := cmp.Diff(before, tree(t, root)); diff != "" {
		t.Errorf("--undo wrote something:\n%s", diff)
	}
	// Put them back as fsrb wrote them: the undo goes through.
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("ALPHA\n"), 0o644)
	os.WriteFile(filepath.Join(root, "c.txt"), []byte("GAMMA\n"), 0o644)
	if code, stdout, stderr := runIn(t, root, env, "--undo"); code != 0 || !strings.Contains(stdout, "[UNDONE]") {
		t.Fatalf("--undo: exit %d\n%s%s", code, stdout, stderr)
	}
	if got := tree(t, root); !cmp.Equal(got, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n"}) {
		t.Errorf("after undo: %v", got)
	}
}

// A journal left "pending" by a crash (written here as fsrb writes it:
// the new content already renamed in, the old one in the journal) stops
// every run — apply and dry run alike, text and JSON — with a message that
// says to run fsrb --recover; --recover then puts the old content back.
func TestPendingJournalStopsEveryRun(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "ALPHA\n", "b.txt": "beta\n"})
	root, _ = filepath.EvalSymlinks(root)
	state := t.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+state, "NO_COLOR=1")
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	rootSum := sha256.Sum256([]byte(root))
	dir := filepath.Join(state, "fsrb", hex.EncodeToString(rootSum[:])[:16], "20240101T000000.000000000Z-0badc0de")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "0.old"), []byte("alpha\n"), 0o600)
	m := map[string]any{
		"version": 1, "id": filepath.Base(dir), "kind": "commit", "root": root, "state": "pending",
		"time": "2024-01-01T00:00:00Z",
		"files": []map[string]any{{
			"path": "a.txt", "action": "modify", "existed": true, "mode": 0o644, "backup": "0.old",
			"old_sha256": sum("alpha\n"), "new_sha256": sum("ALPHA\n"),
			"temp": ".a.txt.fsrb-tmp-0badc0de-0", "restore_temp": ".a.txt.fsrb-tmp-0badc0de-0r",
		}},
	}
	data, _ := json.Marshal(m)
	os.WriteFile(filepath.Join(dir, "manifest.json"), data, 0o600)

	patch := writePatch(t, "b.txt\n<<<<<<< SEARCH\nbeta\n=======\nBETA\n>>>>>>> REPLACE\n")
	for _, args := range [][]string{{patch}, {"--dry-run", patch}, {"--diff", patch}} {
		code, stdout, stderr := runIn(t, root, env, args...)
		if code != exitFail || !strings.Contains(stderr, "Run `fsrb --recover` to roll it back") || stdout != "" {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout, stderr)
		}
	}
	code, stdout, _ := runIn(t, root, env, "--json", patch)
	if code != exitFail || !strings.Contains(stdout, `"kind": "commit"`) && !strings.Contains(stdout, `"kind":"commit"`) || !strings.Contains(stdout, "fsrb --recover") {
		t.Errorf("--json: exit %d\n%s", code, stdout)
	}
	if code, _, stderr := runIn(t, root, env, "--undo"); code != exitFail || !strings.Contains(stderr, "run fsrb --recover first") {
		t.Errorf("--undo: exit %d\n%s", code, stderr)
	}
	if got := tree(t, root); !cmp.Equal(got, map[string]string{"a.txt": "ALPHA\n", "b.txt": "beta\n"}) {
		t.Fatalf("a refused run wrote something: %v", got)
	}
	code, stdout, stderr := runIn(t, root, env, "--recover")
	if code != 0 || stdout != "Restored a.txt\n\n[RECOVERED] The interrupted commit was rolled back: 1 file restored, 0 files removed, 0 temporary files deleted.\n" {
		t.Fatalf("--recover: exit %d\n%q\n%s", code, stdout, stderr)
	}
	if code, _, stderr := runIn(t, root, env, patch); code != 0 {
		t.Fatalf("after recovery: exit %d\n%s", code, stderr)
	}
	if got := tree(t, root); !cmp.Equal(got, map[string]string{"a.txt": "alpha\n", "b.txt": "BETA\n"}) {
		t.Errorf("after recovery and the patch: %v", got)
	}
}
