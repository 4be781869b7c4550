package treesitter

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// The chains found from a place's ancestors (enclosing.go) are the
// query's, for every language of plain patterns: on each annotated file of
// testdata/treesitter/defs, for every range of one to six whole lines and
// for single bytes all through the file.
func TestEnclosingByAncestorsMatchesQuery(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "treesitter", "defs", "*"))
	if err != nil {
		t.Fatal(err)
	}
	langs := map[string]bool{}
	for _, file := range files {
		content, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lang := LanguageFor(file, content)
		pats := lang.plainPatterns()
		if pats == nil {
			continue
		}
		langs[lang.Name] = true
		tree, err := NewCache(1).Parse(file, 1, content, nil)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := tree.Definitions()
		if err != nil {
			t.Fatal(err)
		}
		// The query's chain, as EnclosingDefinitions gave it before.
		byQuery := func(s, e int) []Definition {
			n := sort.Search(len(defs), func(i int) bool { return defs[i].StartByte > s })
			var chain []Definition
			for _, d := range defs[:n] {
				if d.StartByte <= s && e <= d.EndByte {
					chain = append(chain, d)
				}
			}
			return chain
		}
		check := func(s, e int) {
			s, e = trimRange(content, s, e)
			if s >= e {
				return
			}
			got, want := tree.enclosingByAncestors(pats, s, e), byQuery(s, e)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s [%d, %d) %q:\nancestors %+v\nquery     %+v", filepath.Base(file), s, e, content[s:e], got, want)
			}
		}
		starts := append(lineStarts(content), len(content))
		for i := range len(starts) - 1 {
			for j := i + 1; j < len(starts) && j <= i+6; j++ {
				check(starts[i], starts[j])
			}
		}
		for b := range len(content) {
			check(b, b+1)
		}
	}
	for _, name := range []string{"python", "java", "csharp", "ruby", "php", "bash", "scala", "javascript", "typescript", "tsx"} {
		if !langs[name] {
			t.Errorf("no annotated file of %s, a language of plain patterns, was checked", name)
		}
	}
}

// Queries of any other form are not read as plain patterns: the query
// stays their one path.
func TestPlainPatternsRefuseOtherForms(t *testing.T) {
	for _, q := range []string{
		// A nested pattern (Go's receiver), a predicate, a capture other
		// than @name, two names, none, a quantifier, an anonymous node, a
		// field without a test.
		"(function_declaration name: (identifier) @name) @definition.function\n(method_declaration receiver: (parameter_list (parameter_declaration type: (type_identifier) @receiver)) name: (field_identifier) @name) @definition.method",
		"((function_definition name: (identifier) @name) @definition.function (#match? @name \"^test\"))",
		"(function_definition name: (identifier) @name body: (block) @body) @definition.function",
		"(class_definition name: (identifier) @name body: (block) @name) @definition.class",
		"(class_definition body: (block)) @definition.class",
		"(class_definition name: (identifier)+ @name) @definition.class",
		"(class_definition name: \"class\" @name) @definition.class",
		"(class_definition name: [(identifier) (attribute) @name) @definition.class",
		"(class_definition name: (identifier) @name body) @definition.class",
	} {
		if p := parsePlainPatterns(q); p != nil {
			t.Errorf("%q read as plain patterns %+v", q, p)
		}
	}
	got := parsePlainPatterns("; a comment\n(module name: (_) @name) @definition.module\n\n" +
		"(pair key: (_) @name value: [(arrow_function) (function_expression)]) @definition.method\n")
	want := []plainPattern{
		{node: "module", kind: "module", fields: []fieldTest{{"name", []string{"_"}}}},
		{node: "pair", kind: "method", fields: []fieldTest{{"key", []string{"_"}}, {"value", []string{"arrow_function", "function_expression"}}}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("plain patterns %+v, want %+v", got, want)
	}
}
