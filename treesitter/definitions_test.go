package treesitter

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The files of testdata/treesitter/defs are real source files, one or more
// per registered language, annotated with caret comments (as Sourcegraph's
// squirrel tests are):
//
//	func (s *Server) Start(ctx context.Context) error {
//		return s.listen(ctx)
//		//       ^ chain: method Server.Start
//		//       ^ describe: func (s *Server) Start
//
// An annotation is a line made of a comment opener (//, #, --, /*, <!--),
// a caret, a key, a colon and the expected value (a trailing */ or --> is
// dropped). The caret's byte column points into the nearest line above
// that is neither blank nor an annotation; the location is that one byte.
// Keys:
//
//	chain:    the enclosing definitions, outermost first, each "kind Name",
//	          joined by " > "; "-" for none
//	describe: Describe of the chain
//	sig:      the Signature of the innermost definition
//
// Every file must also parse without a syntax error, every file must hold
// an annotation, and every registered language must have a file: that is
// the smoke test of the registry.
var annotation = regexp.MustCompile(`^\s*(?://|#|--|/\*|<!--)\s*\^\s*(chain|describe|sig):\s*(.*?)\s*(?:\*/|-->)?\s*$`)

func TestDefinitionAnnotations(t *testing.T) {
	files := samplePaths(t)
	covered := map[string]bool{}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			content, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			lang := LanguageFor(file, content)
			if lang == nil {
				t.Fatalf("no language for %s", file)
			}
			covered[lang.Name] = true
			tree, err := NewCache(1).Parse(file, 1, content, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range tree.syntaxNodes() {
				t.Errorf("line %d: syntax error in the sample (%q missing)", tree.line(e.start), e.missing)
			}
			n := checkAnnotations(t, tree)
			if n == 0 {
				t.Errorf("no annotation in %s", file)
			}
		})
	}
	for _, l := range languages {
		if !covered[l.Name] {
			t.Errorf("language %s has no annotated file in testdata/treesitter/defs", l.Name)
		}
	}
}

// checkAnnotations checks every annotation of the tree's file and returns
// how many it found.
func checkAnnotations(t *testing.T, tree *Tree) int {
	t.Helper()
	lines := strings.SplitAfter(string(tree.Content()), "\n")
	offset := make([]int, len(lines)+1)
	for i, l := range lines {
		offset[i+1] = offset[i] + len(l)
	}
	n, target := 0, -1 // target: index of the line annotations point into
	for i, l := range lines {
		m := annotation.FindStringSubmatch(l)
		if m == nil {
			if strings.TrimSpace(l) != "" {
				target = i
			}
			continue
		}
		n++
		col := strings.IndexByte(l, '^')
		if target < 0 || col >= len(strings.TrimRight(lines[target], "\n")) {
			t.Errorf("line %d: the caret points past the line above", i+1)
			continue
		}
		at := offset[target] + col
		chain, err := tree.EnclosingDefinitions(at, at+1)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		var got string
		switch m[1] {
		case "chain":
			got = formatChain(chain)
		case "describe":
			got = Describe(chain)
		case "sig":
			if len(chain) > 0 {
				got = chain[len(chain)-1].Signature
			}
		}
		if got != m[2] {
			t.Errorf("line %d (%q): %s: got %q, want %q", target+1, strings.TrimSpace(lines[target]), m[1], got, m[2])
		}
	}
	return n
}

func formatChain(chain []Definition) string {
	if len(chain) == 0 {
		return "-"
	}
	parts := make([]string, len(chain))
	for i, d := range chain {
		parts[i] = strings.TrimSpace(d.Kind + " " + d.Name)
	}
	return strings.Join(parts, " > ")
}
