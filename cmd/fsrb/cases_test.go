package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/pipeline"
)

// The cases in ../../testdata/cases/*.txtar are run twice: through the core
// API in this process, and through the built fsrb binary, and must give the
// same tree. An archive holds:
//
//	-- patch.fsrb --        the patch (also patch.md, patch.txt: the first "patch." file)
//	-- in/PATH --           the tree before
//	-- out/PATH --          the tree after; without out/ files the tree must not change,
//	                        or be empty with an "out-empty" section
//	-- outside/PATH --      files beside the root (targets of escapes, never to change)
//	-- symlinks --          lines "in/link -> target" (target as written)
//	-- args --              CLI flags, one per line
//	-- exit --              the expected exit status (default 0)
//	-- problems --          every problem: "error #2 not-found README.md", one a line
//	-- stdout --, -- stderr --   the CLI's exact output, when given
//
// File data may write a carriage return as <CR>, a BOM as a leading <BOM>,
// and end with a line <NOEOL> for a file without a final newline.
//
// -update rewrites the stdout/stderr sections that exist from the CLI's output.
var update = flag.Bool("update", false, "rewrite stdout/stderr sections of the txtar cases")

var fsrbBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fsrb-bin-")
	if err != nil {
		panic(err)
	}
	fsrbBin = filepath.Join(dir, "fsrb")
	if runtime.GOOS == "windows" {
		fsrbBin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", fsrbBin, ".").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building fsrb: %v\n%s", err, out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type testCase struct {
	name     string
	file     string
	ar       *txtar.Archive
	patch    string
	patchExt string
	args     []string
	exit     int
	problems []string
	hasProbs bool
	in, out  map[string]string
	outside  map[string]string
	links    [][2]string
	outGiven bool
	stdout   *string
	stderr   *string
}

func loadCases(t *testing.T) []*testCase {
	files, err := filepath.Glob("../../testdata/cases/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases found: %v", err)
	}
	var cases []*testCase
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		tc := &testCase{name: strings.TrimSuffix(filepath.Base(file), ".txtar"), file: file, ar: ar,
			in: map[string]string{}, out: map[string]string{}, outside: map[string]string{}}
		for _, f := range ar.Files {
			data := string(f.Data)
			switch {
			case strings.HasPrefix(f.Name, "patch.") && tc.patchExt == "":
				tc.patch, tc.patchExt = data, strings.TrimPrefix(f.Name, "patch")
			case strings.HasPrefix(f.Name, "in/"):
				tc.in[strings.TrimPrefix(f.Name, "in/")] = data
			case strings.HasPrefix(f.Name, "out/"):
				tc.out[strings.TrimPrefix(f.Name, "out/")] = data
				tc.outGiven = true
			case f.Name == "out-empty":
				tc.outGiven = true
			case strings.HasPrefix(f.Name, "outside/"):
				tc.outside[strings.TrimPrefix(f.Name, "outside/")] = data
			case f.Name == "symlinks":
				for _, l := range nonEmptyLines(data) {
					from, to, ok := strings.Cut(l, " -> ")
					if !ok {
						t.Fatalf("%s: bad symlink line %q", file, l)
					}
					tc.links = append(tc.links, [2]string{from, to})
				}
			case f.Name == "args":
				tc.args = nonEmptyLines(data)
			case f.Name == "exit":
				tc.exit, err = strconv.Atoi(strings.TrimSpace(data))
				if err != nil {
					t.Fatalf("%s: bad exit section", file)
				}
			case f.Name == "problems":
				tc.problems, tc.hasProbs = nonEmptyLines(data), true
			case f.Name == "stdout":
				tc.stdout = &data
			case f.Name == "stderr":
				tc.stderr = &data
			default:
				t.Fatalf("%s: unknown section %q", file, f.Name)
			}
		}
		if tc.patchExt == "" {
			t.Fatalf("%s: no patch section", file)
		}
		if !tc.outGiven {
			tc.out = tc.in
		}
		cases = append(cases, tc)
	}
	return cases
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// setup writes the case's trees into a fresh folder and returns the root.
// Paths in the archive use "/" and may carry a "\r" in their data (CRLF cases).
func (tc *testCase) setup(t *testing.T) (root, patchFile string) {
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	root = filepath.Join(base, "root")
	write := func(dir string, files map[string]string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, data := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if strings.HasSuffix(name, "/") {
				os.MkdirAll(p, 0o755)
				continue
			}
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(decode(data)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(root, tc.in)
	write(filepath.Join(base, "outside"), tc.outside)
	for _, l := range tc.links {
		from := filepath.Join(base, "root", strings.TrimPrefix(l[0], "in/"))
		os.MkdirAll(filepath.Dir(from), 0o755)
		if err := os.Symlink(l[1], from); err != nil {
			t.Fatal(err)
		}
	}
	patchFile = filepath.Join(base, "patch"+tc.patchExt)
	if err := os.WriteFile(patchFile, []byte(decode(tc.patch)), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, patchFile
}

// decode lets archives hold what txtar cannot show: "<CR>" is a carriage
// return, and a last line "<NOEOL>" means the file has no final newline.
func decode(s string) string {
	s = strings.ReplaceAll(s, "<CR>", "\r")
	s = strings.TrimSuffix(s, "\n<NOEOL>\n")
	if strings.HasPrefix(s, "<BOM>") {
		s = "\uFEFF" + strings.TrimPrefix(s, "<BOM>")
	}
	return s
}

// tree reads every regular file under dir (symlinks are listed by target).
func tree(t *testing.T, dir string) map[string]string {
	got := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			got[rel] = "-> " + target
		case d.IsDir() && rel != ".":
			if entries, _ := os.ReadDir(p); len(entries) == 0 {
				got[rel+"/"] = ""
			}
		case d.Type().IsRegular():
			data, _ := os.ReadFile(p)
			got[rel] = string(data)
		}
		return nil
	})
	return got
}

func (tc *testCase) wantTree() map[string]string {
	want := map[string]string{}
	for k, v := range tc.out {
		want[k] = decode(v)
	}
	for _, l := range tc.links {
		want[strings.TrimPrefix(l[0], "in/")] = "-> " + l[1]
	}
	return want
}

func (tc *testCase) checkTrees(t *testing.T, root string) {
	t.Helper()
	if diff := cmp.Diff(tc.wantTree(), tree(t, root)); diff != "" {
		t.Errorf("tree after (-want +got):\n%s", diff)
	}
	want := map[string]string{}
	for k, v := range tc.outside {
		want[k] = decode(v)
	}
	if diff := cmp.Diff(want, tree(t, filepath.Join(filepath.Dir(root), "outside"))); diff != "" {
		t.Errorf("files outside the root changed (-want +got):\n%s", diff)
	}
}

// argValue returns the value of a flag given as "--flag value" or
// "--flag=value", or "".
func argValue(args []string, flag string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
		if a == flag && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func hasArg(args []string, a string) bool {
	for _, x := range args {
		if x == a {
			return true
		}
	}
	return false
}

func TestCasesAPI(t *testing.T) {
	for _, tc := range loadCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			root, _ := tc.setup(t)
			disk, err := commit.NewDisk(root)
			if err != nil {
				t.Fatal(err)
			}
			slashRoot := filepath.ToSlash(disk.Root)
			patch := core.Parse(decode(tc.patch), core.ParseOptions{Format: argValue(tc.args, "--format"), Exists: func(name string) bool {
				_, err := disk.ReadFile(name)
				return err == nil
			}})
			if hasArg(tc.args, "--blocks") {
				return
			}
			plan := pipeline.Validate(patch, disk, core.Options{Root: slashRoot, Fuzzy: hasArg(tc.args, "--fuzzy")}, !hasArg(tc.args, "--syntax-check=false"), hasArg(tc.args, "--revert"))
			if tc.hasProbs {
				var got []string
				for _, p := range plan.Problems {
					got = append(got, fmt.Sprintf("%s #%d %s %s", p.Severity, p.Block, p.Kind, p.Path))
				}
				if diff := cmp.Diff(tc.problems, got); diff != "" {
					t.Errorf("problems (-want +got):\n%s\nall:\n%s", diff, dumpProblems(plan.Problems))
				}
			}
			partial := hasArg(tc.args, "--partial")
			if (plan.OK() || partial && len(plan.Files) > 0) && !hasArg(tc.args, "--dry-run") {
				if _, err := commit.Commit(disk.Root, plan.Files, commit.Options{StateDir: t.TempDir()}); err != nil {
					t.Fatalf("commit: %v", err)
				}
			}
			if ok := plan.OK(); ok != (tc.exit == 0) {
				t.Errorf("plan OK = %v, want exit %d\n%s", ok, tc.exit, dumpProblems(plan.Problems))
			}
			tc.checkTrees(t, root)
		})
	}
}

func dumpProblems(ps core.Problems) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "  %s #%d %s %s: %s\n", p.Severity, p.Block, p.Kind, p.Path, p.Message)
	}
	return b.String()
}

func TestCasesCLI(t *testing.T) {
	updated := map[string]*testCase{}
	for _, tc := range loadCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			root, patchFile := tc.setup(t)
			args := append(append([]string{}, tc.args...), patchFile)
			code, stdout, stderr := runCLI(t, root, args...)
			if code != tc.exit {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.exit, stdout, stderr)
			}
			norm := func(s string) string { return strings.ReplaceAll(s, patchFile, "$PATCH") }
			if *update && (tc.stdout != nil || tc.stderr != nil) {
				for i, f := range tc.ar.Files {
					switch f.Name {
					case "stdout":
						tc.ar.Files[i].Data = []byte(norm(stdout))
					case "stderr":
						tc.ar.Files[i].Data = []byte(norm(stderr))
					}
				}
				updated[tc.file] = tc
			}
			if tc.stdout != nil && !*update {
				if diff := cmp.Diff(*tc.stdout, norm(stdout)); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			}
			if tc.stderr != nil && !*update {
				if diff := cmp.Diff(*tc.stderr, norm(stderr)); diff != "" {
					t.Errorf("stderr (-want +got):\n%s", diff)
				}
			}
			if hasArg(tc.args, "--blocks") {
				tc.out = tc.in
			}
			tc.checkTrees(t, root)
		})
	}
	names := make([]string, 0, len(updated))
	for n := range updated {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := os.WriteFile(n, txtar.Format(updated[n].ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCasesRevert runs every case that applies, then its revert, on the
// disk through the commit: the tree must come back as it was (folders
// removed by the apply included), or the revert be refused as
// irreversible. Cases whose change the patch cannot give back byte for
// byte (README.md "Reverting a patch") are named and skipped; core's
// TestInvertRoundTripCases holds the same rule.
func TestCasesRevert(t *testing.T) {
	for _, tc := range loadCases(t) {
		if tc.exit != 0 || hasArg(tc.args, "--revert") || hasArg(tc.args, "--blocks") || hasArg(tc.args, "--partial") {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			root, _ := tc.setup(t)
			before := tree(t, root)
			disk, err := commit.NewDisk(root)
			if err != nil {
				t.Fatal(err)
			}
			opt := core.Options{Root: filepath.ToSlash(disk.Root), Fuzzy: hasArg(tc.args, "--fuzzy")}
			patch := core.Parse(decode(tc.patch), core.ParseOptions{Format: argValue(tc.args, "--format"), Exists: func(name string) bool {
				_, err := disk.ReadFile(name)
				return err == nil
			}})
			plan := core.Validate(patch, disk, opt)
			if !plan.OK() {
				t.Fatalf("the case applies with the CLI but not here: %s", dumpProblems(plan.Problems))
			}
			if why := notExactlyRevertible(plan); why != "" {
				t.Skip(why)
			}
			if _, err := commit.Commit(disk.Root, plan.Files, commit.Options{StateDir: t.TempDir()}); err != nil {
				t.Fatalf("commit: %v", err)
			}
			rev := core.Revert(patch, disk, opt)
			if !rev.OK() {
				for _, p := range rev.Problems.Errors() {
					if p.Kind != core.KindIrreversible {
						t.Fatalf("revert refused, not as irreversible:\n%s", dumpProblems(rev.Problems))
					}
				}
				return
			}
			if _, err := commit.Commit(disk.Root, rev.Files, commit.Options{StateDir: t.TempDir()}); err != nil {
				t.Fatalf("commit of the revert: %v", err)
			}
			if diff := cmp.Diff(before, tree(t, root)); diff != "" {
				t.Errorf("tree after apply and revert (-before +after):\n%s", diff)
			}
		})
	}
}

// notExactlyRevertible says why the patch does not hold what it takes to
// undo a plan byte for byte: a fuzzy rung placed a block, a file was
// overwritten, a deleted file held a BOM, CRLF or no final newline, or a
// create filled an existing empty file.
func notExactlyRevertible(plan *core.Plan) string {
	for _, r := range plan.Blocks {
		switch r.Rung {
		case "exact", "create", "delete", "move", "hashline":
		default:
			return fmt.Sprintf("block #%d was placed by the fuzzy rung %s", r.Block, r.Rung)
		}
	}
	for _, p := range plan.Problems {
		if p.Kind == core.KindOverwrite {
			return fmt.Sprintf("block #%d overwrites a file", p.Block)
		}
	}
	for _, f := range plan.Files {
		old := string(f.Old)
		switch {
		case f.Action == core.ActionDelete && (strings.HasPrefix(old, "\uFEFF") || strings.Contains(old, "\r") || !strings.HasSuffix(old, "\n")):
			return f.Display + " is deleted, and held a BOM, CRLF or no final newline"
		case f.Existed && strings.TrimPrefix(old, "\uFEFF") == "":
			return f.Display + " existed, empty, before the patch"
		}
	}
	return ""
}
