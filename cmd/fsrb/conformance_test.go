package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The apply-patch conformance suites: Codex's own scenarios (Apache-2.0,
// not vendored: the folder $FSRB_CODEX_SUITE names, else codexSuite's
// default beside the repository; skipped when absent), and ours in
// testdata/apply-patch, in the same layout. A case is a folder:
//
//	input/      the tree before (absent: empty)
//	patch.txt   the patch; it is run from outside the tree
//	expected/   the whole tree after, every file byte for byte and every folder
//	args        optional: extra fsrb flags, one a line (ours only)
//	exit        optional: the expected exit status (ours only)
//
// The built fsrb runs "fsrb [args] /path/to/patch.txt" with the copied
// input as working directory. Unlike Codex's runner, the exit status is
// checked too: 1 when the expected tree is the input (the patch is
// refused), 0 otherwise.
//
// A folder of testdata/apply-patch named like a Codex case, without a
// patch.txt, overrides that case's expected tree (an absent expected/ is
// the empty tree) and, with an exit file, its exit status; its README.md
// says why.

func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

type apCase struct {
	name     string
	dir      string // holds input/ and patch.txt
	expected string // the expected tree's folder ("" or missing: empty)
	args     []string
	exit     int // -1: derive from the trees
}

func loadAPCases(t *testing.T, suite, ours string) []apCase {
	t.Helper()
	var cases []apCase
	overrides := map[string]string{}
	if entries, err := os.ReadDir(ours); err == nil {
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			dir := filepath.Join(ours, e.Name())
			if _, err := os.Stat(filepath.Join(dir, "patch.txt")); err != nil {
				overrides[e.Name()] = dir
				continue
			}
			cases = append(cases, newAPCase(t, "fsrb/"+e.Name(), dir, filepath.Join(dir, "expected")))
		}
	}
	if suite != "" {
		entries, err := os.ReadDir(suite)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !e.IsDir() {
				continue
			}
			dir := filepath.Join(suite, e.Name())
			c := newAPCase(t, "codex/"+e.Name(), dir, filepath.Join(dir, "expected"))
			if o, ok := overrides[e.Name()]; ok {
				mine := newAPCase(t, c.name, o, filepath.Join(o, "expected"))
				c.expected, c.exit = mine.expected, mine.exit
				delete(overrides, e.Name())
			}
			cases = append(cases, c)
		}
		for name := range overrides {
			t.Errorf("testdata/apply-patch/%s overrides a case the Codex suite does not have", name)
		}
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].name < cases[j].name })
	return cases
}

func newAPCase(t *testing.T, name, dir, expected string) apCase {
	c := apCase{name: name, dir: dir, expected: expected, exit: -1}
	if data, err := os.ReadFile(filepath.Join(dir, "args")); err == nil {
		c.args = nonEmptyLines(string(data))
	}
	if data, err := os.ReadFile(filepath.Join(dir, "exit")); err == nil {
		n, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil {
			t.Fatalf("%s: bad exit file", dir)
		}
		c.exit = n
	}
	return c
}

// apSnapshot reads a tree: every regular file by content, every folder as
// "path/". A missing dir is the empty tree.
func apSnapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	if _, err := os.Stat(dir); err != nil {
		return got
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == ".":
		case d.IsDir():
			got[rel+"/"] = ""
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			got[rel] = string(data)
		default:
			got[rel] = "(not a regular file)"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	if err := os.MkdirAll(to, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(from); err != nil {
		return
	}
	if err := os.CopyFS(to, os.DirFS(from)); err != nil {
		t.Fatal(err)
	}
}

func runAPCase(t *testing.T, c apCase) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	copyTree(t, filepath.Join(c.dir, "input"), root)
	patch, err := os.ReadFile(filepath.Join(c.dir, "patch.txt"))
	if err != nil {
		t.Fatal(err)
	}
	patchFile := filepath.Join(base, "patch.txt")
	if err := os.WriteFile(patchFile, patch, 0o644); err != nil {
		t.Fatal(err)
	}
	input := apSnapshot(t, root)

	cmd := exec.Command(fsrbBin, append(append([]string{}, c.args...), patchFile)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+filepath.Join(base, "state"), "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}

	want := apSnapshot(t, c.expected)
	if diff := cmp.Diff(want, apSnapshot(t, root)); diff != "" {
		t.Errorf("tree after (-want +got):\n%s\nexit %d\nstdout:\n%s\nstderr:\n%s", diff, code, &stdout, &stderr)
	}
	wantExit := c.exit
	if wantExit < 0 {
		wantExit = 0
		if cmp.Equal(want, input) {
			wantExit = 1 // refused: nothing written
		}
	}
	if code != wantExit {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, wantExit, &stdout, &stderr)
	}
}

// codexSuite is the folder of Codex's apply-patch scenarios: the one
// $FSRB_CODEX_SUITE names, else the checkout beside the repository that the
// project's machines keep.
func codexSuite(t *testing.T) string {
	if dir := os.Getenv("FSRB_CODEX_SUITE"); dir != "" {
		return dir
	}
	return filepath.Join(repoRoot(t), "..", "shared", "conformance", "apply-patch")
}

func TestApplyPatchConformance(t *testing.T) {
	suite := codexSuite(t)
	if _, err := os.Stat(suite); err != nil {
		t.Skipf("Codex's apply-patch suite is not at %s (set FSRB_CODEX_SUITE to its folder): %v", suite, err)
	}
	cases := loadAPCases(t, suite, filepath.Join(repoRoot(t), "testdata", "apply-patch"))
	for _, c := range cases {
		if !strings.HasPrefix(c.name, "codex/") {
			continue
		}
		t.Run(c.name, func(t *testing.T) { runAPCase(t, c) })
	}
}

// TestApplyPatchOwnCases runs our own cases (CRLF, BOM, ambiguity, fuzzy,
// rollback across files, ...), which need no outside suite.
func TestApplyPatchOwnCases(t *testing.T) {
	cases := loadAPCases(t, "", filepath.Join(repoRoot(t), "testdata", "apply-patch"))
	if len(cases) == 0 {
		t.Fatal("no cases in testdata/apply-patch")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runAPCase(t, c) })
	}
}
