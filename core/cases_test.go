package core

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fsrb/fsrb/internal/casefile"
)

// TestCases runs the engine's cases (../testdata/cases, format in
// internal/casefile) through Parse, Validate (Revert for --revert) and a
// MapFS: the problems each case lists, whether the plan is OK, and the
// files after. What only tree-sitter gives (the "syntax" warnings, the
// explanations in the report's text) and what only the disk has
// (symlinks, files outside the root) is checked by cmd/fsrb's pass over
// the same files, with the CLI's exact output.
func TestCases(t *testing.T) {
	cases, err := casefile.Load("../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if len(c.Links) > 0 || len(c.Outside) > 0 {
				t.Skip("symlinks and files outside the root are the disk's: cmd/fsrb's pass")
			}
			if c.Grammar {
				t.Skip("placed through tree-sitter's outline: cmd/fsrb's pass")
			}
			ran++
			in := decodeTree(c.In)
			files := maps.Clone(in)
			popt := ParseOptions{Format: c.Arg("--format"), Snippets: !c.Has("--snippets=false"), Exists: func(name string) bool {
				_, err := files.ReadFile(name)
				return err == nil
			}}
			patch := Parse(casefile.Decode(c.Patch), popt)
			if c.Has("--blocks") {
				return // the listing is report.Blocks', checked by the CLI's pass
			}
			// Applied, as every front end validates: a block already in
			// its applied state is a note, and the rest applies.
			opt := Options{Root: "/root", Fuzzy: c.Has("--fuzzy"), Applied: true}
			var plan *Plan
			if c.Has("--revert") {
				plan = Revert(patch, files, opt)
			} else {
				plan = Validate(patch, files, opt)
			}
			if c.HasProbs {
				var want, got []string
				for _, l := range c.Problems {
					if f := strings.Fields(l); len(f) < 3 || f[2] != string(KindSyntax) {
						want = append(want, l)
					}
				}
				for _, p := range plan.Problems {
					got = append(got, fmt.Sprintf("%s #%d %s %s", p.Severity, p.Block, p.Kind, p.Path))
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("problems (-want +got):\n%s\nall:\n%s", diff, problemList(plan.Problems))
				}
			}
			if ok := plan.OK(); ok != (c.Exit == 0) {
				t.Errorf("plan OK = %v, want exit %d\n%s", ok, c.Exit, problemList(plan.Problems))
			}
			if (plan.OK() || c.Has("--partial") && len(plan.Files) > 0) && !c.Has("--dry-run") {
				files.Apply(plan)
				if plan.OK() && !c.Has("--fuzzy") && !c.Has("--revert") && len(plan.Files) > 0 {
					// Run twice: never written twice, each block applied
					// or refused (cmd/fsrb's TestCasesTwice does the same
					// through the binary, and checks the answer).
					again := Validate(Parse(casefile.Decode(c.Patch), popt), files, opt)
					if twice := maps.Clone(files); again.OK() {
						twice.Apply(again)
						if diff := cmp.Diff(files, twice); diff != "" {
							t.Errorf("the patch applies a second time (-once +twice):\n%s", diff)
						}
					}
				}
			}
			if diff := cmp.Diff(decodeTree(c.Out), files); diff != "" {
				t.Errorf("files after (-want +got):\n%s", diff)
			}
		})
	}
	if ran < 100 {
		t.Errorf("only %d cases ran in core", ran)
	}
}

// decodeTree is a case's files as bytes (casefile.Decode).
func decodeTree(files map[string]string) MapFS {
	out := MapFS{}
	for k, v := range files {
		out[k] = casefile.Decode(v)
	}
	return out
}

func problemList(ps Problems) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "  %s #%d %s %s: %s\n", p.Severity, p.Block, p.Kind, p.Path, p.Message)
	}
	return b.String()
}
