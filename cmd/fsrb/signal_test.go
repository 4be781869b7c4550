//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/internal/testenv"
)

// SIGINT, SIGTERM or SIGHUP at any phase of a commit: before its commit
// point the commit rolls back (every file old, no temporary file, no
// pending journal), fsrb says so and dies of the signal, as a shell
// expects; at the commit point it is too late, and the commit finishes
// (all new, exit 0). The fsrb run here is built with a pause at the step
// named by FSRB_PAUSE_AT (core/commit/failpoint_pause.go), so that the
// signal lands in that phase; the release build has no such pause.
func TestSignalDuringCommit(t *testing.T) {
	bin := testenv.BuildPaused(t, ".")
	patch := filepath.Join(t.TempDir(), "p.fsrb")
	var p strings.Builder
	for i := range 4 {
		fmt.Fprintf(&p, "src/f%d.txt\n<<<<<<< SEARCH\nold %d\n=======\nnew %d\n>>>>>>> REPLACE\n\n", i, i, i)
	}
	p.WriteString("lib/new/mod.txt\n<<<<<<< SEARCH\n=======\ncreated\n>>>>>>> REPLACE\n\n")
	p.WriteString("gone/deep/bye.txt\n<<<<<<< SEARCH\nbye\n=======\n>>>>>>> REPLACE\n")
	if err := os.WriteFile(patch, []byte(p.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	oldTree := func(t *testing.T) string {
		root := t.TempDir()
		for i := range 4 {
			writeFile(t, root, fmt.Sprintf("src/f%d.txt", i), fmt.Sprintf("old %d\n", i))
		}
		writeFile(t, root, "gone/deep/bye.txt", "bye\n")
		return root
	}
	state := t.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+state, "NO_COLOR=1")
	root := oldTree(t)
	old := tree(t, root)
	if code, stdout, stderr := runIn(t, root, env, patch); code != 0 {
		t.Fatalf("clean run: exit %d\n%s%s", code, stdout, stderr)
	}
	new := tree(t, root)

	signals := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}
	phases := []string{"backup:", "journal:manifest", "mkdir:", "temp-write:", "fsync:", "rename:", "remove:", "rmdir:", "fsync-dir:", "journal:committed"}
	for i, phase := range phases {
		sig := signals[i%len(signals)]
		t.Run(phase+strings.Fields(signalName(sig))[0], func(t *testing.T) {
			if signal.Ignored(sig) {
				// Started under nohup, say: fsrb inherits the ignore
				// and keeps it (TestIgnoredStopSignal).
				t.Skipf("%v is ignored in this process, and so in the fsrb it starts", sig)
			}
			root := oldTree(t)
			cmd := exec.Command(bin, patch)
			cmd.Dir = root
			exited, stdout, stderr := startPaused(t, cmd, env, phase)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := <-exited
			after := tree(t, root)
			for name := range after {
				if strings.Contains(name, ".fsrb-tmp-") {
					t.Errorf("temporary file left: %s", name)
				}
			}
			if p, err := commit.Pending(root, commit.Options{StateDir: filepath.Join(state, "fsrb")}); p || err != nil {
				t.Errorf("a journal is pending (%v): the signal cut the commit off", err)
			}
			if phase == "journal:committed" {
				if err != nil || !cmp.Equal(after, new) {
					t.Fatalf("a signal at the commit point: %v, tree all new %v\n%s%s", err, cmp.Equal(after, new), stdout, stderr)
				}
				if !strings.Contains(stderr.String(), "came after the commit point") {
					t.Errorf("stderr:\n%s", stderr)
				}
				return
			}
			if !killedBy(err, sig) {
				t.Errorf("fsrb ended with %v, want killed by %v", err, sig)
			}
			if !cmp.Equal(after, old) {
				t.Fatalf("the tree is not all old:\n%s\nstdout:\n%s\nstderr:\n%s", summarizeDiff(old, new, after), stdout, stderr)
			}
			if !strings.Contains(stderr.String(), "interrupted before the commit point; every file was rolled back") ||
				!strings.Contains(stderr.String(), "fsrb: stopped by "+signalName(sig)) {
				t.Errorf("stderr:\n%s", stderr)
			}
			// Nothing is left to recover, and the patch applies again.
			if code, stdout, stderr := runIn(t, root, env, patch); code != 0 || !cmp.Equal(tree(t, root), new) {
				t.Errorf("the patch again: exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
}

func writeFile(t *testing.T, root, name, data string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A stop signal that fsrb starts ignoring stays ignored: nohup ignores
// SIGHUP so that a run outlives its terminal. Here a shell ignores it and
// execs fsrb, paused in its commit; SIGHUP, then SIGTERM, come. Caught,
// SIGHUP would stop the commit first (a lower-numbered signal is
// delivered first); ignored, SIGTERM does, and fsrb says so.
func TestIgnoredStopSignal(t *testing.T) {
	bin := testenv.BuildPaused(t, ".")
	root := t.TempDir()
	writeFile(t, root, "a.txt", "old\n")
	patch := filepath.Join(t.TempDir(), "p.fsrb")
	if err := os.WriteFile(patch, []byte("a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `trap '' HUP; exec "$0" "$@"`, bin, patch)
	cmd.Dir = root
	exited, _, stderr := startPaused(t, cmd, append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1"), "rename")
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM} {
		if err := cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
	}
	if err := <-exited; !killedBy(err, syscall.SIGTERM) {
		t.Errorf("fsrb ended with %v, want killed by SIGTERM", err)
	}
	if !strings.Contains(stderr.String(), "fsrb: stopped by SIGTERM") {
		t.Errorf("stderr, want SIGTERM to stop the run, SIGHUP ignored:\n%s", stderr)
	}
	if got := readFile(t, filepath.Join(root, "a.txt")); got != "old\n" {
		t.Errorf("a.txt = %q after the rollback, want it old", got)
	}
}

// startPaused starts cmd with env and the pause at the commit's step
// phase (core/commit/failpoint_pause.go), and returns once fsrb waits
// there: the channel its end comes on, and its output.
func startPaused(t *testing.T, cmd *exec.Cmd, env []string, phase string) (<-chan error, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	pause := filepath.Join(t.TempDir(), "paused")
	cmd.Env = append(env, "FSRB_PAUSE_AT="+phase, "FSRB_PAUSE_FILE="+pause)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if ended, err := testenv.WaitPaused(t, pause, exited); ended {
		t.Fatalf("fsrb ended (%v) before the step %q\n%s%s", err, phase, &stdout, &stderr)
	}
	return exited, &stdout, &stderr
}

// killedBy reports whether a process that ended with err died of sig.
func killedBy(err error, sig syscall.Signal) bool {
	var ee *exec.ExitError
	return errors.As(err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled() && ee.Sys().(syscall.WaitStatus).Signal() == sig
}
