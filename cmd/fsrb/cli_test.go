package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const twoFiles = `a.txt
<<<<<<< SEARCH
alpha
=======
ALPHA
>>>>>>> REPLACE

b.txt
<<<<<<< SEARCH
beta
=======
BETA
>>>>>>> REPLACE
`

func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, data := range files {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func writePatch(t *testing.T, text string) string {
	p := filepath.Join(t.TempDir(), "p.fsrb")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readFile(t *testing.T, p string) string {
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestStdin(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	cmd := exec.Command(fsrbBin, "-")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
	cmd.Stdin = strings.NewReader(twoFiles)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if readFile(t, filepath.Join(root, "a.txt")) != "ALPHA\n" || readFile(t, filepath.Join(root, "b.txt")) != "BETA\n" {
		t.Errorf("files not changed:\n%s", out)
	}
}

func TestUsageErrors(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n"})
	patch := writePatch(t, twoFiles)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no patch", nil, "give exactly one patch file"},
		{"two patches", []string{patch, patch}, "give exactly one patch file"},
		{"unknown flag", []string{"--frobnicate", patch}, "unknown flag: --frobnicate"},
		{"unreadable patch", []string{filepath.Join(root, "missing.fsrb")}, "cannot read the patch"},
		{"bad root", []string{"--root", filepath.Join(root, "nope"), patch}, "bad --root"},
		{"root is a file", []string{"--root", filepath.Join(root, "a.txt"), patch}, "not a directory"},
		{"bad format", []string{"--format", "xml", patch}, `unknown --format "xml"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, root, tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("stdout %q stderr %q, want %q in stderr", stdout, stderr, tc.want)
			}
		})
	}
	if readFile(t, filepath.Join(root, "a.txt")) != "alpha\n" {
		t.Error("a usage error wrote a file")
	}
}

func TestVersionAndHelp(t *testing.T) {
	code, stdout, _ := runCLI(t, t.TempDir(), "--version")
	if code != 0 || !strings.HasPrefix(stdout, "fsrb ") {
		t.Errorf("--version: %d %q", code, stdout)
	}
	code, stdout, _ = runCLI(t, t.TempDir(), "-h")
	if code != 0 || !strings.Contains(stdout, "usage: fsrb") || !strings.Contains(stdout, "--dry-run") ||
		!strings.Contains(stdout, "without --dry-run the change is also written") {
		t.Errorf("-h: %d %q", code, stdout)
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	code, stdout, _ := runCLI(t, root, "--dry-run", writePatch(t, twoFiles))
	want := "Would save changes to a.txt\nWould save changes to b.txt\n\n[DRY RUN] All 2 blocks would apply to 2 files; nothing was written.\n"
	if code != 0 || stdout != want {
		t.Errorf("exit %d stdout %q", code, stdout)
	}
	if readFile(t, filepath.Join(root, "a.txt")) != "alpha\n" {
		t.Error("--dry-run wrote a.txt")
	}
}

func TestRootFlag(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	code, _, stderr := runCLI(t, t.TempDir(), "--root", root, writePatch(t, twoFiles))
	if code != 0 || readFile(t, filepath.Join(root, "a.txt")) != "ALPHA\n" {
		t.Errorf("exit %d %s", code, stderr)
	}
}

func TestDiff(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	code, stdout, _ := runCLI(t, root, "--diff", "--dry-run", writePatch(t, twoFiles))
	for _, want := range []string{"--- a/a.txt\n+++ b/a.txt\n", "-alpha\n+ALPHA\n", "-beta\n+BETA\n"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("diff lacks %q:\n%s", want, stdout)
		}
	}
	if code != 0 || readFile(t, filepath.Join(root, "a.txt")) != "alpha\n" {
		t.Error("--diff --dry-run wrote")
	}
}

type jsonOut struct {
	OK      bool `json:"ok"`
	Written bool `json:"written"`
	Files   []struct {
		Path   string `json:"path"`
		Action string `json:"action"`
		Blocks []int  `json:"blocks"`
	} `json:"files"`
	Skipped []int `json:"skipped"`
	Errors  []struct {
		Path       string `json:"path"`
		Block      int    `json:"block"`
		Kind       string `json:"kind"`
		Message    string `json:"message"`
		Line       int    `json:"line"`
		Candidates []struct {
			Line       int     `json:"line"`
			EndLine    int     `json:"end_line"`
			Context    string  `json:"context"`
			Similarity float64 `json:"similarity"`
		} `json:"candidates"`
	} `json:"errors"`
}

func TestJSON(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "one\nbetta\ntwo\n"})
	code, stdout, _ := runCLI(t, root, "--json", writePatch(t, twoFiles))
	var r jsonOut
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if code != 1 || r.OK || r.Written || len(r.Files) != 0 || len(r.Errors) != 1 {
		t.Fatalf("exit %d report %+v", code, r)
	}
	e := r.Errors[0]
	if e.Path != "b.txt" || e.Block != 2 || e.Kind != "not-found" || e.Line != 2 || len(e.Candidates) != 1 {
		t.Fatalf("error %+v", e)
	}
	if c := e.Candidates[0]; c.Line != 2 || c.EndLine != 2 || c.Context != "betta" || c.Similarity < 0.7 {
		t.Errorf("candidate %+v", c)
	}

	os.WriteFile(filepath.Join(root, "b.txt"), []byte("beta\n"), 0o644)
	code, stdout, _ = runCLI(t, root, "--json", writePatch(t, twoFiles))
	r = jsonOut{}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatal(err)
	}
	if code != 0 || !r.OK || !r.Written || len(r.Files) != 2 || r.Files[1].Path != "b.txt" || r.Files[1].Action != "modify" || r.Files[1].Blocks[0] != 2 {
		t.Errorf("exit %d report %+v", code, r)
	}
}

func TestPartial(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "gamma\n"})
	code, stdout, stderr := runCLI(t, root, "--partial", writePatch(t, twoFiles))
	if code != 1 {
		t.Errorf("exit %d, want 1 (a block was skipped)", code)
	}
	if readFile(t, filepath.Join(root, "a.txt")) != "ALPHA\n" || readFile(t, filepath.Join(root, "b.txt")) != "gamma\n" {
		t.Error("--partial did not apply exactly the valid block")
	}
	if !strings.Contains(stdout, "[PARTIAL] Applied 1 block of 2 to 1 file; skipped block #2.") {
		t.Errorf("stdout %q", stdout)
	}
	if !strings.Contains(stderr, "Block #2: SEARCH block not found") {
		t.Errorf("stderr %q", stderr)
	}
}

func TestBlocksListing(t *testing.T) {
	root := workspace(t, nil)
	patch := writePatch(t, "Install it:\n```bash\nnpm i\n```\n"+twoFiles)
	code, stdout, _ := runCLI(t, root, "--blocks", patch)
	if code != 0 || !strings.Contains(stdout, "#1   modify  a.txt  lines 5-10") || !strings.Contains(stdout, "shell") ||
		!strings.Contains(stdout, "2 edit blocks, 1 shell block.") {
		t.Errorf("exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, root, "--blocks", "--json", patch)
	var r struct {
		Blocks []struct {
			Number    int    `json:"number"`
			Path      string `json:"path"`
			Op        string `json:"op"`
			Search    string `json:"search"`
			Replace   string `json:"replace"`
			StartLine int    `json:"start_line"`
			EndLine   int    `json:"end_line"`
			Dialect   string `json:"dialect"`
		} `json:"blocks"`
		Problems []any `json:"problems"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 0 {
		t.Fatalf("%v %d\n%s", err, code, stdout)
	}
	if len(r.Blocks) != 3 || r.Blocks[1].Path != "b.txt" || r.Blocks[1].Search != "beta\n" || r.Blocks[1].Replace != "BETA\n" ||
		r.Blocks[1].StartLine != 12 || r.Blocks[1].EndLine != 17 || r.Blocks[2].Op != "shell" || r.Blocks[2].Replace != "npm i\n" {
		t.Errorf("%+v", r)
	}
}

func TestUndoAndRecover(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	state := t.TempDir()
	env := append(os.Environ(), "XDG_STATE_HOME="+state)
	run := func(args ...string) (int, string, string) { return runIn(t, root, env, args...) }
	if code, _, stderr := run(writePatch(t, twoFiles)); code != 0 {
		t.Fatal(stderr)
	}
	if code, _, stderr := run("--recover"); code != 0 {
		t.Fatalf("--recover with nothing pending: %d %s", code, stderr)
	}
	if code, stdout, stderr := run("--undo"); code != 0 || readFile(t, filepath.Join(root, "a.txt")) != "alpha\n" {
		t.Fatalf("--undo: %d %s %s", code, stdout, stderr)
	}
	if code, _, stderr := run("--undo", "extra.fsrb"); code != 2 || !strings.Contains(stderr, "take no patch file") {
		t.Errorf("--undo with a patch: %d %s", code, stderr)
	}
}

// --diff with --json stays one JSON object: each file's diff is inside it.
func TestDiffWithJSONIsOneObject(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	patch := filepath.Join(t.TempDir(), "p.fsrb")
	os.WriteFile(patch, []byte("a.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n\nb.txt\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n"), 0o644)
	code, stdout, stderr := runCLI(t, root, "--dry-run", "--diff", "--json", patch)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	var r struct {
		Files []struct{ Path, Diff string }
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, stdout)
	}
	want := map[string]string{
		"a.txt": "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n",
		"b.txt": "--- /dev/null\n+++ b/b.txt\n@@ -0,0 +1 @@\n+new\n",
	}
	for _, f := range r.Files {
		if f.Diff != want[f.Path] {
			t.Errorf("%s: diff %q, want %q", f.Path, f.Diff, want[f.Path])
		}
	}
	if len(r.Files) != 2 {
		t.Errorf("files %+v", r.Files)
	}
}

// With a root reached through a symlink (macOS's /tmp, a linked home), an
// absolute path may spell the root as given or as resolved.
func TestAbsolutePathThroughALinkedRoot(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(base, "w")
	link := filepath.Join(base, "link")
	os.MkdirAll(filepath.Join(real, "src"), 0o755)
	os.WriteFile(filepath.Join(real, "src", "f.txt"), []byte("one\ntwo\n"), 0o644)
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks here:", err)
	}
	for _, spelled := range []string{link, real} {
		patch := filepath.Join(t.TempDir(), "p.fsrb")
		os.WriteFile(patch, []byte(filepath.ToSlash(filepath.Join(spelled, "src", "f.txt"))+"\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n"), 0o644)
		code, stdout, stderr := runCLI(t, base, "--dry-run", "--root", link, patch)
		if code != 0 || !strings.Contains(stdout, "Would save changes to") {
			t.Errorf("path under %s: exit %d\n%s%s", spelled, code, stdout, stderr)
		}
	}
}

// The JSON reports print "<", ">" and "&" as they are: a SEARCH marker or
// a generic type reads the same in the report as in the patch.
func TestJSONDoesNotEscapeHTML(t *testing.T) {
	root := workspace(t, map[string]string{"a.go": "var m map[string]int\n"})
	patch := writePatch(t, "a.go\n<<<<<<< SEARCH\nvar m Map<K, V> && x\n=======\nvar m = 1\n>>>>>>> REPLACE\n")
	for _, args := range [][]string{{"--json", patch}, {"--blocks", "--json", patch}} {
		_, stdout, _ := runCLI(t, root, args...)
		if strings.Contains(stdout, `\u00`) || !strings.Contains(stdout, "<<<<<<< SEARCH") || !strings.Contains(stdout, "Map<K, V> && x") {
			t.Errorf("%v: the JSON escapes HTML characters:\n%s", args, stdout)
		}
	}
}
