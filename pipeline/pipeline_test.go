package pipeline

import (
	"io/fs"
	"testing"

	"github.com/fsrb/fsrb/core"
)

type files map[string]string

func (f files) ReadFile(name string) ([]byte, error) {
	if s, ok := f[name]; ok {
		return []byte(s), nil
	}
	return nil, fs.ErrNotExist
}

func (f files) RealPath(name string) (string, error) { return name, nil }

// checker records what Validate asks of tree-sitter and answers with one
// syntax warning.
type checker struct{ explained, checked int }

func (c *checker) Explain(path, text, search, replace string, occ []int) []core.Explanation {
	c.explained++
	out := make([]core.Explanation, len(occ))
	for i := range out {
		out[i].Where = "here"
	}
	return out
}

func (c *checker) Outline(path, text string) ([]core.Item, bool) { return nil, false }

func (c *checker) SyntaxProblems(plan *core.Plan) core.Problems {
	c.checked++
	return core.Problems{{Kind: core.KindSyntax, Severity: core.SeverityWarning, Block: 1, Path: "a.py", Message: "syntax"}}
}

// TestValidate: the one entry point plugs the Checker in as each front end
// asks: explanations always, the syntax check by mode, revert on demand.
func TestValidate(t *testing.T) {
	disk := files{"a.py": "x = 1\ny = 2\nx = 1\n"}
	parse := func(s string) *core.Patch { return core.Parse(s, core.ParseOptions{}) }
	applies := parse("a.py\n<<<<<<< SEARCH\ny = 2\n=======\ny = 3\n>>>>>>> REPLACE\n")
	ambiguous := parse("a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n")

	for _, tc := range []struct {
		name           string
		patch          *core.Patch
		syntax         Syntax
		revert         bool
		ok             bool
		explained, syn int
		warnings       int
	}{
		{"off", applies, SyntaxOff, false, true, 0, 0, 0},
		{"always", applies, SyntaxAlways, false, true, 0, 1, 1},
		{"if ok, ok", applies, SyntaxIfOK, false, true, 0, 1, 1},
		{"if ok, not ok", ambiguous, SyntaxIfOK, false, false, 1, 0, 0},
		{"always, not ok", ambiguous, SyntaxAlways, false, false, 1, 1, 1},
		{"revert of a patch not applied", applies, SyntaxOff, true, false, 0, 0, 0},
	} {
		c := &checker{}
		plan := Validate(tc.patch, disk, Check{Options: core.Options{Root: "/w"}, Checker: c, Syntax: tc.syntax, Revert: tc.revert})
		warnings := 0
		for _, p := range plan.Problems {
			if p.Kind == core.KindSyntax {
				warnings++
			}
		}
		if plan.OK() != tc.ok || c.explained != tc.explained || c.checked != tc.syn || warnings != tc.warnings {
			t.Errorf("%s: ok %v, explained %d, checked %d, warnings %d; want %v, %d, %d, %d (%v)",
				tc.name, plan.OK(), c.explained, c.checked, warnings, tc.ok, tc.explained, tc.syn, tc.warnings, plan.Problems)
		}
		if tc.explained > 0 {
			for _, p := range plan.Problems {
				for _, cand := range p.Candidates {
					if cand.Explanation.Where != "here" {
						t.Errorf("%s: a candidate without the Checker's explanation: %+v", tc.name, cand)
					}
				}
			}
		}
	}
	// No Checker: core alone.
	if plan := Validate(ambiguous, disk, Check{Syntax: SyntaxAlways}); plan.OK() {
		t.Error("an ambiguous block validated")
	}
}
