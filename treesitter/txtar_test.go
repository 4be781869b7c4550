package treesitter

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fsrb/fsrb/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the want.* sections of testdata/treesitter/*.txtar")

// The cases of testdata/treesitter/*.txtar each hold one target file and
// any of:
//
//	-- search -- / -- replace --    a block whose SEARCH occurs more than once
//	-- want.widen --                golden: per occurrence, its line, its
//	                                definition chain, the "@@" anchor and the
//	                                widened block
//	-- break.search -- / -- break.replace --
//	                                an edit that breaks the file's syntax
//	-- want.syntax --               golden: the syntax errors it leaves
//
// The target file is the section whose name is neither of those. Besides
// the goldens, the test checks that every widened SEARCH occurs exactly
// once, and that applying the widened block changes the file exactly as
// applying the original block at that occurrence would. go test -update
// rewrites the goldens.
func TestTxtarCases(t *testing.T) {
	golden.Each(t, filepath.Join("..", "testdata", "treesitter", "*.txtar"), func(t *testing.T, file string, ar *txtar.Archive) {
		sections := map[string]string{}
		var path string
		for _, f := range ar.Files {
			sections[f.Name] = string(f.Data)
			switch f.Name {
			case "search", "replace", "want.widen", "break.search", "break.replace", "want.syntax":
			default:
				path = f.Name
			}
		}
		if path == "" {
			t.Fatal("no target file")
		}
		content := sections[path]
		got := map[string]string{}
		if s, ok := sections["search"]; ok {
			got["want.widen"] = widenCase(t, path, content, s, sections["replace"])
		}
		if s, ok := sections["break.search"]; ok {
			got["want.syntax"] = syntaxCase(t, path, content, s, sections["break.replace"])
		}
		golden.Check(t, file, ar, got, *update, "-update")
	})
}

// widenCase renders the widenings of search in content and checks each.
func widenCase(t *testing.T, path, content, search, replace string) string {
	t.Helper()
	occ := occurrencesOf(content, search)
	if len(occ) < 2 {
		t.Fatalf("SEARCH occurs %d times; a case needs an ambiguous block", len(occ))
	}
	ws := DefaultCache.Widen(path, content, search, replace, occ)
	if len(ws) != len(occ) {
		t.Fatalf("%d widenings for %d occurrences", len(ws), len(occ))
	}
	var b strings.Builder
	for i, w := range ws {
		if w.Search == "" {
			t.Errorf("occurrence %d: no widening", i+1)
			continue
		}
		if n := len(occurrencesOf(content, w.Search)); n != 1 {
			t.Errorf("occurrence %d: widened SEARCH occurs %d times", i+1, n)
		}
		// The widened block applied where it matches must do what the
		// original block does at this occurrence.
		want := content[:occ[i]] + replace + content[occ[i]+len(search):]
		at := occurrencesOf(content, w.Search)[0]
		got := content[:at] + w.Replace + content[at+len(w.Search):]
		if got != want {
			t.Errorf("occurrence %d: the widened block does not apply like the original one there", i+1)
		}
		fmt.Fprintf(&b, "occurrence %d: line %d", i+1, w.Line)
		if d := Describe(w.Definitions); d != "" {
			fmt.Fprintf(&b, ", in %s", d)
		}
		fmt.Fprintf(&b, "\nchain: %s\nanchor: %s\nwidened: %d above, %d below\n", formatChain(w.Definitions), orDash(w.Anchor), w.Above, w.Below)
		fmt.Fprintf(&b, "<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n\n", w.Search, w.Replace)
	}
	return b.String()
}

// syntaxCase applies the breaking edit and renders the syntax errors.
func syntaxCase(t *testing.T, path, content, search, replace string) string {
	t.Helper()
	occ := occurrencesOf(content, search)
	if len(occ) != 1 {
		t.Fatalf("break.search occurs %d times, want 1", len(occ))
	}
	after := content[:occ[0]] + replace + content[occ[0]+len(search):]
	if errs := DefaultCache.SyntaxErrors(path, []byte(content), []byte(content), [][2]int{{occ[0], occ[0] + len(search)}}); errs != nil {
		t.Errorf("no edit, yet syntax errors: %v", errs)
	}
	errs := DefaultCache.SyntaxErrors(path, []byte(content), []byte(after), [][2]int{{occ[0], occ[0] + len(replace)}})
	if len(errs) == 0 {
		t.Error("the breaking edit was not flagged")
	}
	var b strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&b, "%s:%d: %s\n", path, e.Line, e.Message)
	}
	return b.String()
}

// occurrencesOf is a naive, independent implementation of the engine's
// rule: whole consecutive lines, overlapping places counted.
func occurrencesOf(content, search string) []int {
	text := []byte(content)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		text = append(text, '\n')
	}
	if !strings.HasSuffix(search, "\n") {
		search += "\n"
	}
	var out []int
	for i := 0; i+len(search) <= len(text); i++ {
		if (i == 0 || text[i-1] == '\n') && bytes.HasPrefix(text[i:], []byte(search)) {
			out = append(out, i)
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
