package pipeline_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// continueCase is one example of Continue's lazy-edit corpus
// (testdata/continue-lazy/README.md).
type continueCase struct {
	name               string // the file name the example is for: calculator-exp.js
	orig, lazy, expect string
}

func loadContinue(t *testing.T) []continueCase {
	t.Helper()
	dir := filepath.Join("..", "testdata", "continue-lazy")
	paths, err := filepath.Glob(filepath.Join(dir, "*.diff"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus in %s: %v", dir, err)
	}
	var out []continueCase
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.Split(string(data), "\n---\n")
		if len(parts) != 3 {
			t.Fatalf("%s: %d parts, want 3", p, len(parts))
		}
		for i := range parts {
			parts[i] = strings.TrimRight(strings.TrimLeft(parts[i], "\n"), " \t\n")
		}
		var want []string
		for _, l := range strings.Split(parts[2], "\n") {
			switch {
			case strings.HasPrefix(l, "- "):
			case strings.HasPrefix(l, "+ "):
				want = append(want, l[2:])
			default:
				want = append(want, l)
			}
		}
		out = append(out, continueCase{
			name: strings.TrimSuffix(filepath.Base(p), ".diff"),
			orig: parts[0] + "\n", lazy: parts[1] + "\n", expect: strings.Join(want, "\n") + "\n",
		})
	}
	return out
}

// normalized is the comparison Continue's runner makes: lines holding
// only blanks count as empty, and trailing blank lines do not count.
func normalized(s string) string {
	lines := strings.Split(strings.TrimRight(s, " \t\n"), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = ""
		} else {
			lines[i] = strings.TrimRight(l, " \t")
		}
	}
	return strings.Join(lines, "\n")
}

// misindented are the cases whose expected diff does not match their own
// original: no-lazy-single-class's "-" line has one space less than the
// file's line (Continue skips the case). The new file is compared with
// every line's indentation dropped.
var misindented = map[string]bool{"no-lazy-single-class.js": true}

// TestContinueCorpus runs Continue's corpus as chat answers: each case
// applies to exactly the expected file or is refused with a reason; none
// writes anything else. Which apply, and why the others are refused, is
// in docs/formats.md; fewer applied than there is a regression.
func TestContinueCorpus(t *testing.T) {
	const wantApplied = 11
	applied := 0
	for _, tc := range loadContinue(t) {
		t.Run(tc.name, func(t *testing.T) {
			lang := strings.TrimPrefix(filepath.Ext(tc.name), ".")
			answer := "Here is the change:\n\n```" + lang + " " + tc.name + "\n" + tc.lazy + "```\n"
			fsys := core.MapFS{tc.name: tc.orig}
			patch := core.Parse(answer, core.ParseOptions{Snippets: true})
			if len(patch.Blocks) != 1 || patch.Blocks[0].Op != core.OpSnippet {
				t.Fatalf("the answer reads as %d blocks, not one snippet: %v", len(patch.Blocks), patch.Problems)
			}
			plan := pipeline.Validate(patch, fsys, pipeline.Check{Options: core.Options{Applied: true}, Checker: pipeline.Disk})
			if !plan.OK() {
				for _, p := range plan.Problems {
					if p.Severity == core.SeverityError {
						t.Logf("refused (%s): %s", p.Kind, p.Message)
						if p.Message == "" {
							t.Error("refused without a reason")
						}
					}
				}
				return
			}
			var got string
			for _, f := range plan.Files {
				got = string(f.Bytes())
			}
			g, w := normalized(got), normalized(tc.expect)
			if misindented[tc.name] {
				g, w = unindented(g), unindented(w)
			}
			if g != w {
				t.Errorf("applied (%s), but not to the expected file:\n%s\nwant:\n%s", plan.Blocks[0].Shape, got, tc.expect)
				return
			}
			applied++
			t.Logf("applied (%s)", plan.Blocks[0].Shape)
		})
	}
	t.Logf("%d of the corpus's cases applied", applied)
	if applied < wantApplied {
		t.Errorf("%d cases applied, want %d", applied, wantApplied)
	}
}

func unindented(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, " \t")
	}
	return strings.Join(lines, "\n")
}
