package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BuildPaused builds the command in the package folder pkg (as go build
// takes it) with the pause of core/commit/failpoint_pause.go, and returns
// the binary. Run with FSRB_PAUSE_AT=STEP and FSRB_PAUSE_FILE=FILE, the
// binary writes FILE at the first commit step whose name starts with
// STEP, then waits there until its commit is stopped: a signal the test
// sends on seeing FILE (WaitPaused) lands at that step.
func BuildPaused(t testing.TB, pkg string) string {
	t.Helper()
	abs, err := filepath.Abs(pkg)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(abs))
	if out, err := exec.Command("go", "build", "-tags", "fsrb_pause", "-o", bin, pkg).CombinedOutput(); err != nil {
		t.Fatalf("building %s with the pause: %v\n%s", pkg, err, out)
	}
	return bin
}

// WaitPaused waits until the binary's pause file exists. When ended gets
// a value first (the process, or the call the test made of it, ended
// before the step), it returns true and that value, for the test to say
// so. A pause that neither comes nor ends in Timeout fails the test.
func WaitPaused(t testing.TB, file string, ended <-chan error) (bool, error) {
	t.Helper()
	deadline := time.After(Timeout(t, 30*time.Second))
	for {
		if _, err := os.Stat(file); err == nil {
			return false, nil
		}
		select {
		case err := <-ended:
			return true, err
		case <-deadline:
			t.Fatalf("no pause file %s, and the process did not end", file)
		case <-time.After(time.Millisecond):
		}
	}
}
