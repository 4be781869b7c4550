package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fsrb/fsrb/core/commit"
)

// Crash consistency of the real binary: fsrb applies a large patch (300
// big files modified, new files in new folders, files deleted and their
// folders pruned) and is killed with SIGKILL at a random moment; then
// `fsrb --recover` runs, and the tree must be all old or all new, byte for
// byte, with no temporary file left and nothing pending. The kill moments
// are seeded (FSRB_KILL_SEED) and spread over the whole run, with most of
// them inside the commit itself (after the journal folder appears).
//
// `make test-full` runs a few trials (`make test` none: -short); `make
// stress` runs many (FSRB_KILL_TRIALS). Fault injection at every single step of a commit,
// rollback and recovery is in core/commit/fault_test.go; this test adds
// what only a real process shows: a kill between any two instructions,
// with the journal lock held and buffers unflushed.

const (
	killModified = 300 // files of killFileLines lines, one block each
	killCreated  = 12  // new files, in new folders
	killDeleted  = 12  // files emptied (deleted), their folders pruned
	killLines    = 800 // lines per modified file (about 50 KB each)
)

type killFixture struct {
	patch    string // the patch file
	old, new map[string]string
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// writeKillTree writes the tree before the patch under root.
func writeKillTree(t testing.TB, root string) {
	t.Helper()
	var b strings.Builder
	for f := range killModified {
		b.Reset()
		for l := range killLines {
			fmt.Fprintf(&b, "file %03d line %04d: the quick brown fox jumps over the lazy dog\n", f, l)
		}
		full := filepath.Join(root, fmt.Sprintf("pkg%02d/file%03d.txt", f%20, f))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for d := range killDeleted {
		full := filepath.Join(root, fmt.Sprintf("gone/g%02d/bye.txt", d))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(fmt.Sprintf("bye %d\n", d)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func killPatch() string {
	var p strings.Builder
	for f := range killModified {
		for _, l := range []int{killLines / 4, killLines / 2, killLines - 1} {
			fmt.Fprintf(&p, "pkg%02d/file%03d.txt\n<<<<<<< SEARCH\nfile %03d line %04d: the quick brown fox jumps over the lazy dog\n=======\nfile %03d line %04d: THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG\nand a new line\n>>>>>>> REPLACE\n\n",
				f%20, f, f, l, f, l)
		}
	}
	for c := range killCreated {
		fmt.Fprintf(&p, "new/n%02d/deep/created.txt\n<<<<<<< SEARCH\n=======\ncreated %d\n>>>>>>> REPLACE\n\n", c, c)
	}
	for d := range killDeleted {
		fmt.Fprintf(&p, "gone/g%02d/bye.txt\n<<<<<<< SEARCH\nbye %d\n=======\n>>>>>>> REPLACE\n\n", d, d)
	}
	return p.String()
}

// newKillFixture applies the patch once, cleanly, to learn the tree after
// it and how long a whole run takes.
func newKillFixture(t *testing.T) (*killFixture, time.Duration) {
	t.Helper()
	fx := &killFixture{patch: filepath.Join(t.TempDir(), "big.fsrb")}
	if err := os.WriteFile(fx.patch, []byte(killPatch()), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	writeKillTree(t, root)
	fx.old = tree(t, root)
	start := time.Now()
	code, stdout, stderr := runCLI(t, root, fx.patch)
	took := time.Since(start)
	if code != 0 {
		t.Fatalf("clean run: exit %d\n%s%s", code, stdout, stderr)
	}
	want := fmt.Sprintf("[SUCCESS] All %d blocks applied to %d files.\n", 3*killModified+killCreated+killDeleted, killModified+killCreated+killDeleted)
	if !strings.HasSuffix(stdout, want) {
		t.Fatalf("clean run: stdout ends %q", stdout[max(0, len(stdout)-200):])
	}
	fx.new = tree(t, root)
	return fx, took
}

func TestKillDuringCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and kills a real process")
	}
	trials := envInt("FSRB_KILL_TRIALS", 4)
	seed := uint64(envInt("FSRB_KILL_SEED", 20240601))
	fx, took := newKillFixture(t)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var oldN, newN, pendingN, mixedN, inCommit int
	for i := range trials {
		// Two thirds of the kills wait for the journal folder, so that they
		// land inside the commit; the rest are spread over the whole run.
		afterJournal := i%3 != 2
		delay := time.Duration(rng.Int64N(int64(took) + 1))
		if afterJournal {
			delay = time.Duration(rng.Int64N(int64(took)/2 + 1))
		}
		res := killTrial(t, fx, afterJournal, delay)
		switch {
		case res.pending:
			pendingN++
		}
		if res.mixed {
			mixedN++
		}
		if res.inCommit {
			inCommit++
		}
		if res.final == "old" {
			oldN++
		} else {
			newN++
		}
		if t.Failed() {
			t.Fatalf("trial %d (seed %d, delay %v, after journal %v) failed", i, seed, delay, afterJournal)
		}
	}
	t.Logf("kill trials: %d (seed %d; a clean run takes %v): %d killed inside the commit, %d left a pending journal, %d left a half-applied tree before recovery; after --recover: %d all old, %d all new",
		trials, seed, took.Round(time.Millisecond), inCommit, pendingN, mixedN, oldN, newN)
}

type killResult struct {
	pending  bool   // a journal was pending after the kill
	mixed    bool   // the tree was neither all old nor all new before recovery
	inCommit bool   // the journal folder existed when the kill came
	final    string // "old" or "new" after recovery
}

func killTrial(t *testing.T, fx *killFixture, afterJournal bool, delay time.Duration) killResult {
	t.Helper()
	root := t.TempDir()
	state := t.TempDir()
	writeKillTree(t, root)
	journals := filepath.Join(state, "fsrb")
	env := append(os.Environ(), "XDG_STATE_HOME="+state, "NO_COLOR=1")

	cmd := exec.Command(fsrbBin, fx.patch)
	cmd.Dir, cmd.Env = root, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	if afterJournal {
		for {
			if entries, _ := filepath.Glob(filepath.Join(journals, "*", "2*")); len(entries) > 0 {
				break
			}
			select {
			case err := <-exited:
				exited <- err
			default:
				time.Sleep(100 * time.Microsecond)
				continue
			}
			break
		}
	}
	select {
	case err := <-exited:
		exited <- err
	case <-time.After(delay):
	}
	entries, _ := filepath.Glob(filepath.Join(journals, "*", "2*"))
	res := killResult{inCommit: len(entries) > 0}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	err := <-exited
	if err == nil {
		res.inCommit = false // it finished before the kill
	}

	res.pending, _ = commit.Pending(root, commit.Options{StateDir: journals})
	before := tree(t, root)
	res.mixed = !cmp.Equal(before, fx.old) && !cmp.Equal(before, fx.new)
	if res.mixed && !res.pending {
		t.Errorf("a half-applied tree with no pending journal: nothing could recover it")
	}

	// A run while a journal is pending refuses and says to recover.
	if res.pending {
		code, _, stderr := runIn(t, root, env, fx.patch)
		if code != exitFail || !strings.Contains(stderr, "fsrb --recover") {
			t.Errorf("a run with a pending journal: exit %d, stderr:\n%s", code, stderr)
		}
	}
	code, stdout, stderr := runIn(t, root, env, "--recover")
	if code != 0 {
		t.Fatalf("--recover: exit %d\n%s%s", code, stdout, stderr)
	}
	after := tree(t, root)
	switch {
	case cmp.Equal(after, fx.old):
		res.final = "old"
	case cmp.Equal(after, fx.new):
		res.final = "new"
	default:
		t.Errorf("after --recover the tree is neither all old nor all new:\n%s", summarizeDiff(fx.old, fx.new, after))
	}
	if p, _ := commit.Pending(root, commit.Options{StateDir: journals}); p {
		t.Errorf("still pending after --recover")
	}
	if res.pending && !strings.Contains(stdout, "[RECOVERED]") {
		t.Errorf("--recover output:\n%s", stdout)
	}
	// What --recover deleted, it says: the temporary files are counted.
	temps := 0
	for name := range before {
		if strings.Contains(name, ".fsrb-tmp-") {
			temps++
		}
	}
	if res.pending && !strings.Contains(stdout, fmt.Sprintf(", %d temporary file", temps)) {
		t.Errorf("%d temporary files before --recover; its output:\n%s", temps, stdout)
	}
	if res.final == "old" && res.pending {
		// Recovered: the same patch applies now.
		if code, stdout, stderr := runIn(t, root, env, fx.patch); code != 0 || !cmp.Equal(tree(t, root), fx.new) {
			t.Errorf("applying again after recovery: exit %d\n%s%s", code, stdout, stderr)
		}
	}
	return res
}

func runIn(t *testing.T, dir string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(fsrbBin, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stdout.String(), stderr.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// summarizeDiff names the files of got that are neither old nor new.
func summarizeDiff(old, new, got map[string]string) string {
	var b strings.Builder
	n := 0
	for k, v := range got {
		if o, ok := old[k]; ok && o == v {
			continue
		}
		if w, ok := new[k]; ok && w == v {
			continue
		}
		if n++; n <= 10 {
			fmt.Fprintf(&b, "  %s (%d bytes)\n", k, len(v))
		}
	}
	for k := range old {
		if _, ok := got[k]; !ok {
			if n++; n <= 10 {
				fmt.Fprintf(&b, "  missing %s\n", k)
			}
		}
	}
	oldish, newish := 0, 0
	for k, v := range got {
		if old[k] == v {
			oldish++
		}
		if new[k] == v {
			newish++
		}
	}
	fmt.Fprintf(&b, "  %d entries differ; %d like old, %d like new", n, oldish, newish)
	return b.String()
}
