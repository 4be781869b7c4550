package commit_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

var errInjected = errors.New("injected failure")

// shortStride: under -short (make test) the every-step tests fail a run
// at one step in shortStride and at every journal step, the ones that
// decide what recovery finds; make test-full fails it at every step.
const shortStride = 4

// sampleUnderShort skips step i of an every-step test under -short,
// saying so, unless it is one of the steps -short keeps.
func sampleUnderShort(t *testing.T, i int, step string) {
	t.Helper()
	if testing.Short() && i%shortStride != 0 && !strings.HasPrefix(step, "journal:") {
		t.Skipf("-short fails one step in %d and the journal's; make test-full fails every step", shortStride)
	}
}

// recordSteps returns the failpoint steps that run passes through.
func recordSteps(t *testing.T, run func()) []string {
	t.Helper()
	var steps []string
	commit.SetFailpoint(t, func(step string) error {
		steps = append(steps, step)
		return nil
	})
	run()
	commit.SetFailpoint(t, nil)
	return steps
}

// failAt makes the failpoint return err at step, once.
func failAt(t *testing.T, step string, err error) {
	commit.SetFailpoint(t, func(s string) error {
		if s == step {
			return err
		}
		return nil
	})
}

// mixedSteps runs the mixed commit once, cleanly, for its steps and for
// the tree it leaves.
func mixedSteps(t *testing.T) (steps []string, before, after map[string]entry) {
	t.Helper()
	root, opt, changes := mixed(t)
	before = snapshot(t, root)
	steps = recordSteps(t, func() {
		if _, err := commit.Commit(root, changes, opt); err != nil {
			t.Fatal(err)
		}
	})
	for _, want := range []string{
		"backup:src/app.py", "journal:manifest", "mkdir:lib", "mkdir:lib/new",
		"temp-write:src/app.py", "fsync:src/app.py", "rename:src/app.py", "rename:lib/new/mod.py",
		"remove:old/deep/gone.txt", "remove:docs/readme.md", "rmdir:old/deep", "rmdir:old",
		"fsync-dir:.", "fsync-dir:lib/new", "journal:committed",
	} {
		if !slices.Contains(steps, want) {
			t.Fatalf("step %q never reached; steps: %v", want, steps)
		}
	}
	return steps, before, snapshot(t, root)
}

// An error at any step of a commit leaves every file as it was, with no
// temporary file and no journal left behind.
func TestCommitFailAtEveryStep(t *testing.T) {
	steps, before, _ := mixedSteps(t)
	for i, step := range steps {
		t.Run(step, func(t *testing.T) {
			sampleUnderShort(t, i, step)
			root, opt, changes := mixed(t)
			failAt(t, step, errInjected)
			_, err := commit.Commit(root, changes, opt)
			var ce *commit.CommitError
			if !errors.As(err, &ce) || !ce.RolledBack || !errors.Is(err, errInjected) {
				t.Fatalf("err = %#v, want a rolled-back CommitError", err)
			}
			if !strings.Contains(err.Error(), "every file was rolled back") {
				t.Errorf("message = %q", err)
			}
			assertUntouched(t, root, opt, before)
			commit.SetFailpoint(t, nil)
			if _, err := commit.Commit(root, changes, opt); err != nil {
				t.Fatalf("retry: %v", err)
			}
		})
	}
}

// A crash at any step leaves a state that Recover turns back into all old
// (or, past the commit point, all new), and Recover is idempotent.
func TestCrashAtEveryStepThenRecover(t *testing.T) {
	steps, before, after := mixedSteps(t)
	manifestAt := slices.Index(steps, "journal:manifest")
	for i, step := range steps {
		t.Run(step, func(t *testing.T) {
			sampleUnderShort(t, i, step)
			root, opt, changes := mixed(t)
			failAt(t, step, commit.ErrCrash)
			if _, err := commit.Commit(root, changes, opt); !errors.Is(err, commit.ErrCrash) {
				t.Fatalf("err = %v, want the simulated crash", err)
			}
			commit.SetFailpoint(t, nil)

			if step == "journal:committed" {
				// Past the commit point: all new, and undoable.
				assertTree(t, root, after)
				if _, err := commit.Undo(root, opt); err != nil {
					t.Fatal(err)
				}
				assertTree(t, root, before)
				return
			}
			pending, err := commit.Pending(root, opt)
			if err != nil || pending != (i >= manifestAt) {
				t.Fatalf("Pending = %v, %v; want %v", pending, err, i >= manifestAt)
			}
			if pending {
				if _, err := commit.Commit(root, []core.FileChange{modify("keep.txt", "untouched", "x")}, opt); !errors.Is(err, commit.ErrRecoveryNeeded) {
					t.Errorf("Commit while pending: %v, want ErrRecoveryNeeded", err)
				}
				if _, err := commit.Undo(root, opt); !errors.Is(err, commit.ErrRecoveryNeeded) {
					t.Errorf("Undo while pending: %v, want ErrRecoveryNeeded", err)
				}
			}
			rep, err := commit.Recover(root, opt)
			if err != nil {
				t.Fatal(err)
			}
			if pending == (rep.Journal == "") || len(rep.Kept) != 0 {
				t.Errorf("report = %+v", rep)
			}
			assertTree(t, root, before)
			assertNoTemps(t, root)
			if pending, _ := commit.Pending(root, opt); pending {
				t.Error("still pending after Recover")
			}
			if rep, err := commit.Recover(root, opt); err != nil || rep.Journal != "" {
				t.Errorf("second Recover = %+v, %v; want nothing to do", rep, err)
			}
			assertTree(t, root, before)
			if _, err := commit.Commit(root, changes, opt); err != nil {
				t.Fatalf("commit after recovery: %v", err)
			}
			assertTree(t, root, after)
		})
	}
}

// crashThenRecover crashes the mixed commit at step and recovers it; it
// returns the report and the temporary files on the disk before the
// recovery.
func crashThenRecover(t *testing.T, step string) (root string, opt commit.Options, rep *commit.RecoverReport, temps []string) {
	t.Helper()
	root, opt, changes := mixed(t)
	failAt(t, step, commit.ErrCrash)
	commit.Commit(root, changes, opt)
	commit.SetFailpoint(t, nil)
	temps = tempsIn(t, root)
	rep, err := commit.Recover(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	return root, opt, rep, temps
}

func TestRecoverReport(t *testing.T) {
	root, opt, rep, temps := crashThenRecover(t, "rename:lib/new/mod.py")
	if len(temps) == 0 || !reflect.DeepEqual(sorted(rep.Temps), temps) {
		t.Errorf("Temps = %v, want the temporary files on the disk, %v", rep.Temps, temps)
	}
	if want := []string{"run.sh", "src/app.py"}; !reflect.DeepEqual(rep.Restored, want) {
		t.Errorf("Restored = %v, want %v", rep.Restored, want)
	}
	if want := []string{"lib/new/mod.py"}; !reflect.DeepEqual(rep.Removed, want) {
		t.Errorf("Removed = %v, want %v", rep.Removed, want)
	}
	if want := []string{"lib/new", "lib"}; !reflect.DeepEqual(rep.RemovedDirs, want) {
		t.Errorf("RemovedDirs = %v, want %v", rep.RemovedDirs, want)
	}
	if got := states(t, opt); !reflect.DeepEqual(got, []string{"commit:rolled-back"}) {
		t.Errorf("journals = %v", got)
	}
	want := "Restored run.sh\nRestored src/app.py\nRemoved lib/new/mod.py\nRemoved the folder lib/new/\nRemoved the folder lib/\n" +
		"Deleted the temporary file .empty.txt.fsrb-tmp-"
	if got := rep.String(); !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "\n\n[RECOVERED] The interrupted commit was rolled back: 2 files restored, 1 file removed, 1 temporary file deleted.") {
		t.Errorf("String() = %q\nwant %q…", got, want)
	}
	rep, _ = commit.Recover(root, opt)
	if got := rep.String(); !strings.HasPrefix(got, "Nothing to recover") {
		t.Errorf("String() = %q", got)
	}
}

// Cut off before its first rename, a commit has changed no file but
// left one temporary file beside each: the report counts them, not
// "nothing".
func TestRecoverReportTempsOnly(t *testing.T) {
	root, _, rep, temps := crashThenRecover(t, "rename:src/app.py")
	// src/app.py was renamed when the crash came: it is restored.
	if !reflect.DeepEqual(sorted(rep.Temps), temps) || len(temps) != 3 {
		t.Errorf("Temps = %v, want %v", rep.Temps, temps)
	}
	if got := rep.String(); !strings.Contains(got, "Deleted 3 temporary files (") || !strings.HasSuffix(got, ", 3 temporary files deleted.") {
		t.Errorf("String() = %q", got)
	}
	assertNoTemps(t, root)
}

// tempsIn lists the temporary files of fsrb under root, sorted.
func tempsIn(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	for p := range snapshot(t, root) {
		if strings.Contains(p, ".fsrb-tmp-") {
			out = append(out, filepath.ToSlash(p))
		}
	}
	return sorted(out)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// A recovery that is itself interrupted, by a crash or an error, at any of
// its steps, is finished by the next one.
func TestRecoverInterruptedAtEveryStep(t *testing.T) {
	const crashAt = "rmdir:old" // every rename, removal and pruning done
	root, opt, changes := mixed(t)
	before := snapshot(t, root)
	failAt(t, crashAt, commit.ErrCrash)
	commit.Commit(root, changes, opt)
	steps := recordSteps(t, func() {
		if _, err := commit.Recover(root, opt); err != nil {
			t.Fatal(err)
		}
	})
	for _, want := range []string{"rollback-write:src/app.py", "rollback-rename:src/app.py", "rollback-mkdir:old", "rollback-mkdir:old/deep", "rollback-remove:lib/new/mod.py", "rollback-rmdir:lib"} {
		if !slices.Contains(steps, want) {
			t.Fatalf("step %q never reached; steps: %v", want, steps)
		}
	}
	for i, step := range steps {
		for _, stop := range []error{commit.ErrCrash, errInjected} {
			t.Run(step+"/"+stop.Error(), func(t *testing.T) {
				sampleUnderShort(t, i, step)
				root, opt, changes := mixed(t)
				failAt(t, crashAt, commit.ErrCrash)
				commit.Commit(root, changes, opt)
				failAt(t, step, stop)
				if _, err := commit.Recover(root, opt); !errors.Is(err, stop) {
					t.Fatalf("Recover: %v, want %v", err, stop)
				}
				commit.SetFailpoint(t, nil)
				if pending, _ := commit.Pending(root, opt); !pending {
					t.Fatal("an interrupted recovery must leave the journal pending")
				}
				if _, err := commit.Recover(root, opt); err != nil {
					t.Fatal(err)
				}
				assertTree(t, root, before)
				assertNoTemps(t, root)
			})
		}
	}
}

// A file changed by someone after the crash is not overwritten: it is
// reported, and its old content stays in the journal.
func TestRecoverKeepsLaterEdits(t *testing.T) {
	root, opt, changes := mixed(t)
	failAt(t, "rename:empty.txt", commit.ErrCrash)
	commit.Commit(root, changes, opt)
	commit.SetFailpoint(t, nil)
	write(t, root, "src/app.py", "my own edit\n", 0o644)
	rep, err := commit.Recover(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rep.Kept, []string{"src/app.py"}) {
		t.Fatalf("Kept = %v", rep.Kept)
	}
	if got := read(t, root, "src/app.py"); got != "my own edit\n" {
		t.Errorf("src/app.py = %q", got)
	}
	if got := read(t, root, "run.sh"); got != "#!/bin/sh\necho a\n" {
		t.Errorf("run.sh not restored: %q", got)
	}
	found := false
	backups, _ := filepath.Glob(filepath.Join(rep.BackupDir, "*.old"))
	for _, b := range backups {
		if data, _ := os.ReadFile(b); string(data) == "import os\r\nprint('hi')\r\n" {
			found = true
		}
	}
	if !found {
		t.Errorf("old content of src/app.py not in %s", rep.BackupDir)
	}
}

// When the rollback fails too, the journal stays pending and says so;
// Recover then finishes.
func TestCommitRollbackFails(t *testing.T) {
	root, opt, changes := mixed(t)
	before := snapshot(t, root)
	commit.SetFailpoint(t, func(s string) error {
		if s == "rename:run.sh" || s == "rollback-rename:src/app.py" {
			return errInjected
		}
		return nil
	})
	_, err := commit.Commit(root, changes, opt)
	var ce *commit.CommitError
	if !errors.As(err, &ce) || ce.RolledBack || ce.RollbackErr == nil || ce.Op != "rename" || ce.Path != "run.sh" {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "fsrb --recover") {
		t.Errorf("message = %q", err)
	}
	commit.SetFailpoint(t, nil)
	if pending, _ := commit.Pending(root, opt); !pending {
		t.Fatal("want a pending journal")
	}
	if _, err := commit.Recover(root, opt); err != nil {
		t.Fatal(err)
	}
	assertTree(t, root, before)
	assertNoTemps(t, root)
}
