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
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/internal/casefile"
	"github.com/fsrb/fsrb/pipeline"
)

// The cases in ../../testdata/cases/*.txtar (their format:
// internal/casefile) run in core too (go test ./core: Parse, Validate and
// Revert on an in-memory FS, the problems' kinds and the files). Here they
// run on the disk, twice: through the pipeline in this process
// (TestCasesAPI: tree-sitter's syntax warnings among the problems,
// symlinks and files outside the root), and through the built fsrb binary
// (TestCasesCLI: the exit status, the tree, and stdout/stderr byte for
// byte where the case gives them).
//
// -update rewrites the stdout/stderr sections that exist from the CLI's output.
var update = flag.Bool("update", false, "rewrite stdout/stderr sections of the txtar cases")

var fsrbBin string

// FSRB_BIN names an fsrb built elsewhere to run instead of building one: a
// release archive's, or a script that runs one under qemu-user or Wine
// (release/check.sh). FSRB_BIN_GOOS names the OS that binary is for, when
// not this one: what cannot hold there is skipped (skipOnTarget).
var binGOOS = func() string {
	if goos := os.Getenv("FSRB_BIN_GOOS"); goos != "" {
		return goos
	}
	return runtime.GOOS
}()

func TestMain(m *testing.M) {
	if bin := os.Getenv("FSRB_BIN"); bin != "" {
		fsrbBin = bin
		os.Exit(m.Run())
	}
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

type testCase struct{ *casefile.Case }

// winePath is how a Windows fsrb under Wine prints the absolute path p of
// this machine: on drive Z:, which Wine maps to "/", with backslashes. It
// is p itself for any other binary.
func winePath(p string) string {
	if binGOOS != "windows" || runtime.GOOS == "windows" {
		return p
	}
	return "Z:" + strings.ReplaceAll(p, "/", `\`)
}

// skipOnTarget skips a case that cannot hold for the binary under test
// here. A Windows fsrb runs under Wine, which shows a Unix symlink as the
// file or folder it points to, never as a link (a reparse point, as
// Windows shows one): a case with symlinks would test Wine, not fsrb.
func (tc testCase) skipOnTarget(t *testing.T) {
	if binGOOS == "windows" && runtime.GOOS != "windows" && len(tc.Links) > 0 {
		t.Skip("symlinks: Wine shows a Unix symlink as its target, so fsrb.exe cannot see it as a link here")
	}
}

func loadCases(t *testing.T) []testCase {
	cs, err := casefile.Load("../../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	cases := make([]testCase, len(cs))
	for i, c := range cs {
		cases[i] = testCase{c}
	}
	return cases
}

func nonEmptyLines(s string) []string { return casefile.NonEmptyLines(s) }

// setup writes the case's trees into a fresh folder and returns the root.
// Paths in the archive use "/" and may carry a "\r" in their data (CRLF cases).
func (tc testCase) setup(t *testing.T) (root, patchFile string) {
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
	write(root, tc.In)
	write(filepath.Join(base, "outside"), tc.Outside)
	for _, l := range tc.Links {
		from := filepath.Join(base, "root", strings.TrimPrefix(l[0], "in/"))
		os.MkdirAll(filepath.Dir(from), 0o755)
		if err := os.Symlink(l[1], from); err != nil {
			t.Fatal(err)
		}
	}
	patchFile = filepath.Join(base, "patch"+tc.PatchExt)
	if err := os.WriteFile(patchFile, []byte(decode(tc.Patch)), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, patchFile
}

func decode(s string) string { return casefile.Decode(s) }

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

func (tc testCase) wantTree() map[string]string {
	want := map[string]string{}
	for k, v := range tc.Out {
		want[k] = decode(v)
	}
	for _, l := range tc.Links {
		want[strings.TrimPrefix(l[0], "in/")] = "-> " + l[1]
	}
	return want
}

func (tc testCase) checkTrees(t *testing.T, root string) {
	t.Helper()
	if diff := cmp.Diff(tc.wantTree(), tree(t, root)); diff != "" {
		t.Errorf("tree after (-want +got):\n%s", diff)
	}
	want := map[string]string{}
	for k, v := range tc.Outside {
		want[k] = decode(v)
	}
	if diff := cmp.Diff(want, tree(t, filepath.Join(filepath.Dir(root), "outside"))); diff != "" {
		t.Errorf("files outside the root changed (-want +got):\n%s", diff)
	}
}

func TestCasesAPI(t *testing.T) {
	for _, tc := range loadCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			root, _ := tc.setup(t)
			disk, err := commit.NewDisk(root)
			if err != nil {
				t.Fatal(err)
			}
			slashRoot := filepath.ToSlash(disk.Root)
			patch := core.Parse(decode(tc.Patch), core.ParseOptions{Format: tc.Arg("--format"), Snippets: !tc.Has("--snippets=false"), Exists: func(name string) bool {
				_, err := disk.ReadFile(name)
				return err == nil
			}})
			if tc.Has("--blocks") {
				return
			}
			syntax := pipeline.SyntaxAlways
			if tc.Has("--syntax-check=false") {
				syntax = pipeline.SyntaxOff
			}
			plan := pipeline.Validate(patch, disk, pipeline.Check{Options: core.Options{Root: slashRoot, Fuzzy: tc.Has("--fuzzy"), Applied: true}, Checker: pipeline.Disk, Syntax: syntax, Revert: tc.Has("--revert")})
			if tc.HasProbs {
				var got []string
				for _, p := range plan.Problems {
					got = append(got, fmt.Sprintf("%s #%d %s %s", p.Severity, p.Block, p.Kind, p.Path))
				}
				if diff := cmp.Diff(tc.Problems, got); diff != "" {
					t.Errorf("problems (-want +got):\n%s\nall:\n%s", diff, dumpProblems(plan.Problems))
				}
			}
			partial := tc.Has("--partial")
			if (plan.OK() || partial && len(plan.Files) > 0) && !tc.Has("--dry-run") {
				if _, err := commit.Commit(disk.Root, plan.Files, commit.Options{StateDir: t.TempDir()}); err != nil {
					t.Fatalf("commit: %v", err)
				}
			}
			if ok := plan.OK(); ok != (tc.Exit == 0) {
				t.Errorf("plan OK = %v, want exit %d\n%s", ok, tc.Exit, dumpProblems(plan.Problems))
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
	if top := pipeline.RepoTop(os.TempDir()); top != "" {
		t.Fatalf("the temporary folder is inside the git repository %s, which would be the cases' root: set TMPDIR outside it", top)
	}
	updated := map[string]testCase{}
	for _, tc := range loadCases(t) {
		t.Run(tc.Name, func(t *testing.T) {
			tc.skipOnTarget(t)
			root, patchFile := tc.setup(t)
			args := append(append([]string{}, tc.Args...), patchFile)
			code, stdout, stderr := runCLI(t, root, args...)
			if code != tc.Exit {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.Exit, stdout, stderr)
			}
			norm := func(s string) string {
				s = strings.ReplaceAll(s, winePath(patchFile), "$PATCH")
				s = strings.ReplaceAll(s, winePath(root), "$ROOT")
				return strings.ReplaceAll(strings.ReplaceAll(s, patchFile, "$PATCH"), root, "$ROOT")
			}
			if *update && (tc.Stdout != nil || tc.Stderr != nil) {
				for i, f := range tc.Archive.Files {
					switch f.Name {
					case "stdout":
						tc.Archive.Files[i].Data = []byte(norm(stdout))
					case "stderr":
						tc.Archive.Files[i].Data = []byte(norm(stderr))
					}
				}
				updated[tc.File] = tc
			}
			if tc.Stdout != nil && !*update {
				if diff := cmp.Diff(*tc.Stdout, norm(stdout)); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			}
			if tc.Stderr != nil && !*update {
				if diff := cmp.Diff(*tc.Stderr, norm(stderr)); diff != "" {
					t.Errorf("stderr (-want +got):\n%s", diff)
				}
			}
			if tc.Has("--blocks") {
				tc.Out = tc.In
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
		if err := os.WriteFile(n, txtar.Format(updated[n].Archive), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCasesRevert runs every case that applies, then its revert, on the
// disk through the commit: the tree must come back as it was (folders
// removed by the apply included), or the revert be refused as
// irreversible. Cases whose change the patch cannot give back byte for
// byte (docs/cli.md "Reverting a patch") are named and skipped; core's
// TestInvertRoundTripCases holds the same rule.
func TestCasesRevert(t *testing.T) {
	for _, tc := range loadCases(t) {
		if tc.Exit != 0 || tc.Has("--revert") || tc.Has("--blocks") || tc.Has("--partial") {
			continue
		}
		t.Run(tc.Name, func(t *testing.T) {
			if tc.Grammar {
				t.Skip("a chat snippet: the revert is refused as irreversible (TestRevertSnippet)")
			}
			root, _ := tc.setup(t)
			before := tree(t, root)
			disk, err := commit.NewDisk(root)
			if err != nil {
				t.Fatal(err)
			}
			opt := core.Options{Root: filepath.ToSlash(disk.Root), Fuzzy: tc.Has("--fuzzy"), Applied: true}
			patch := core.Parse(decode(tc.Patch), core.ParseOptions{Format: tc.Arg("--format"), Snippets: !tc.Has("--snippets=false"), Exists: func(name string) bool {
				_, err := disk.ReadFile(name)
				return err == nil
			}})
			plan := core.Validate(patch, disk, opt)
			if !plan.OK() {
				t.Fatalf("the case applies with the CLI but not here: %s", dumpProblems(plan.Problems))
			}
			if n := plan.AppliedCount(); n > 0 {
				t.Skipf("%d blocks stood applied before the patch ran: its revert undoes them too", n)
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
