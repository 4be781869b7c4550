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
	files := samplePaths(t)
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
	for _, name := range []string{"python", "java", "csharp", "ruby", "php", "bash", "scala", "javascript", "typescript", "tsx",
		"rust", "c", "cpp", "kotlin", "swift", "lua", "toml", "css", "yaml", "go"} {
		if !langs[name] {
			t.Errorf("no annotated file of %s, a language of plain patterns, was checked", name)
		}
	}
}

// Queries of any other form are not read as plain patterns: the query
// engine stays their one path. The forms that are, are read as written.
func TestPlainPatternsRefuseOtherForms(t *testing.T) {
	for _, q := range []string{
		// Captures other than @name and @receiver (a predicate's), a
		// predicate, two names, a quantifier, a negated field, an anchor,
		// a field without a test, two tests without a field under one
		// node, a wildcard root, an unclosed alternative.
		"((function_definition name: (identifier) @name) @definition.function (#match? @name \"^test\"))",
		"(element (start_tag (attribute (attribute_name) @_attr)) (#eq? @_attr \"id\")) @definition.element",
		"(function_definition name: (identifier) @name body: (block) @body) @definition.function",
		"(class_definition name: (identifier) @name body: (block) @name) @definition.class",
		"(class_definition name: (identifier)+ @name) @definition.class",
		"(class_definition !body name: (identifier) @name) @definition.class",
		"(class_definition . name: (identifier) @name) @definition.class",
		"(class_definition name: (identifier) @name body) @definition.class",
		"(class_declaration (type_identifier) @name (class_body)) @definition.class",
		"(_ name: (identifier) @name) @definition.any",
		"(class_definition name: [(identifier) (attribute) @name) @definition.class",
	} {
		if p := parsePlainPatterns(q); p != nil {
			t.Errorf("%q read as plain patterns %+v", q, p)
		}
	}
	got := parsePlainPatterns("; a comment\n(module name: (_) @name) @definition.module\n\n" +
		"(pair key: (_) @name value: [(arrow_function) (function_expression)]) @definition.method\n" +
		"(impl_item type: (generic_type type: (type_identifier) @name)) @definition.impl\n" +
		"(class_declaration declaration_kind: \"struct\" (type_identifier) @name) @definition.struct\n" +
		"(companion_object) @definition.object\n")
	named := nodeTest{types: []string{"_"}, name: true}
	want := []plainPattern{
		{kind: "module", root: nodeTest{types: []string{"module"}, kids: []childTest{{"name", named}}}},
		{kind: "method", root: nodeTest{types: []string{"pair"}, kids: []childTest{
			{"key", named}, {"value", nodeTest{types: []string{"arrow_function", "function_expression"}}}}}},
		{kind: "impl", root: nodeTest{types: []string{"impl_item"}, kids: []childTest{
			{"type", nodeTest{types: []string{"generic_type"}, kids: []childTest{{"type", nodeTest{types: []string{"type_identifier"}, name: true}}}}}}}},
		{kind: "struct", root: nodeTest{types: []string{"class_declaration"}, kids: []childTest{
			{"declaration_kind", nodeTest{types: []string{"struct"}, anon: true}}, {"", nodeTest{types: []string{"type_identifier"}, name: true}}}}},
		{kind: "object", root: nodeTest{types: []string{"companion_object"}}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("plain patterns\n%+v\nwant\n%+v", got, want)
	}
}
