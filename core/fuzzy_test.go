package core

import (
	"strings"
	"testing"
)

// fuzzyRun validates one block against one file, fuzzy or not.
func fuzzyRun(t *testing.T, file, search, replace string, fuzzy bool) *Plan {
	t.Helper()
	b := Block{Number: 1, Path: "f.txt", Op: OpModify, Search: search, Replace: replace}
	return Validate(&Patch{Blocks: []Block{b}}, MapFS{"f.txt": file}, Options{Root: "/w", Fuzzy: fuzzy})
}

func problemKinds(ps Problems) string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Severity.String()+" "+string(p.Kind))
	}
	return strings.Join(out, ", ")
}

func TestLadder(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		file, search, replace string
		rung                  string // "" when the block must fail
		want                  string // the file after, or the kind of error
		warn                  string // a part of the warning
	}{
		{name: "exact", file: "a\nb\nc\n", search: "b\n", replace: "B\n", rung: "exact", want: "a\nB\nc\n"},
		{
			name: "blank edges", file: "a\nb\nc\n", search: "\nb\n\n", replace: "\nB\n",
			rung: "blank-lines", want: "a\nB\nc\n", warn: "dropping blank lines",
		},
		{
			name: "blank edges keep replace's extra", file: "a\nb\nc\n", search: "\nb\n", replace: "\n\nB\n",
			rung: "blank-lines", want: "a\n\nB\nc\n",
		},
		{name: "blank edges ambiguous", file: "b\nx\nb\n", search: "\nb\n", replace: "B\n", want: "error ambiguous"},
		{
			name: "inner whitespace", file: "function sum(a, b) {\n\treturn a+b\n}\n", search: "  function   sum(a,\tb) {\n", replace: "  function sum(a, b, c) {\n",
			rung: "inner-whitespace", want: "function sum(a, b, c) {\n\treturn a+b\n}\n", warn: "runs of spaces",
		},
		{
			name: "inner whitespace in the file", file: "x  =   1\ny = 2\n", search: "x = 1\n", replace: "x = 3\n",
			rung: "inner-whitespace", want: "x = 3\ny = 2\n",
		},
		{name: "inner whitespace ambiguous", file: "x  = 1\nx =  1\n", search: "x = 1\n", replace: "x = 3\n", want: "error ambiguous"},
		{name: "inner whitespace never joins words", file: "ab = 1\n", search: "a b = 1\n", replace: "x\n", want: "error not-found"},
		{name: "trailing", file: "a  \nb\t\nc\n", search: "a\nb\n", replace: "x\n", rung: "trailing-whitespace", want: "x\nc\n", warn: "ignoring trailing whitespace"},
		{name: "trailing in search", file: "a\nb\nc\n", search: "a \nb  \n", replace: "x\n", rung: "trailing-whitespace", want: "x\nc\n"},
		{
			name: "indent add spaces", file: "def f():\n    if x:\n        y = 1\n\n        z = 2\n    return\n",
			search: "if x:\n    y = 1\n\n    z = 2\n", replace: "if x:\n    y = 2\n\n    for a in b:\n        z = a\n",
			rung: "indentation", want: "def f():\n    if x:\n        y = 2\n\n        for a in b:\n            z = a\n    return\n",
			warn: "re-indented REPLACE by +4 spaces",
		},
		{
			name: "indent remove", file: "if x:\n  y\n", search: "    if x:\n      y\n", replace: "    if x:\n      z\n      w\n",
			rung: "indentation", want: "if x:\n  z\n  w\n", warn: "-4 spaces",
		},
		{
			name: "indent tabs", file: "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n", search: "if x {\n\ty()\n}\n", replace: "if x {\n\ty()\n\tz()\n}\n",
			rung: "indentation", want: "func f() {\n\tif x {\n\t\ty()\n\t\tz()\n\t}\n}\n", warn: "+1 tab",
		},
		{
			name: "indent mixed refused", file: "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n", search: "    if x {\n        y()\n    }\n", replace: "z\n",
			want: "error fuzzy",
		},
		{
			name: "indent ambiguous", file: "a:\n  x = 1\nb:\n    x = 1\n", search: "x = 1\n", replace: "x = 2\n", want: "error ambiguous",
		},
		{
			name: "typography", file: "say(\u201chello\u201d) \u2014 done\u00a0now\u2026\n", search: "say(\"hello\") - done now...\n", replace: "say(\"bye\")\n",
			rung: "typography", want: "say(\"bye\")\n",
		},
		{
			name: "typography in search", file: "x = 'it'\n", search: "x = \u2018it\u2019\u200b\n", replace: "x = \u2018new\u2019\n",
			rung: "typography", want: "x = \u2018new\u2019\n",
		},
		{
			name: "line numbers pipe", file: "a\nb\nc\nd\n", search: "  2 | b\n  3 | c\n", replace: "  2 | B\n  3 | C\n",
			rung: "line-numbers", want: "a\nB\nC\nd\n",
		},
		{
			name: "line numbers arrow and new line", file: "a\n    b\nc\n", search: "     2→    b\n     3→c\n", replace: "     2→    B\n    extra\n     3→c\n",
			rung: "line-numbers", want: "a\n    B\n    extra\nc\n",
		},
		{
			name: "line numbers hash", file: "a\nb\n", search: "1:3f|a\n2:9c|b\n", replace: "1:3f|A\n2:9c|b\n", rung: "line-numbers", want: "A\nb\n",
		},
		{
			name: "line numbers not consecutive", file: "a\nb\n", search: "1:a\n5:b\n", replace: "x\n", want: "error not-found",
		},
		{
			name: "elision", file: "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n", search: "def f():\n    ...\n    return a\n",
			replace: "def f(x):\n    ...\n    return a + x\n", rung: "elision",
			want: "def f(x):\n    a = 1\n    b = 2\n    c = 3\n    return a + x\n", warn: "kept the 3 elided lines",
		},
		{
			name: "elision comment marker and reindent", file: "class A:\n    def f(self):\n        a = 1\n        b = 2\n        return a\n",
			search: "def f(self):\n    # ... existing code ...\n    return a\n", replace: "def f(self):\n    # ... existing code ...\n    return b\n",
			rung: "elision", want: "class A:\n    def f(self):\n        a = 1\n        b = 2\n        return b\n",
		},
		{
			name: "elision with line numbers", file: "def f():\n    a = 1\n    b = 2\n    return a\n",
			search: "  1 | def f():\n...\n  4 |     return a\n", replace: "  1 | def f():\n...\n  4 |     return b\n",
			rung: "elision", want: "def f():\n    a = 1\n    b = 2\n    return b\n",
		},
		{
			name: "elision replace without marker", file: "a\nx\nb\n", search: "a\n...\nb\n", replace: "A\nB\n", want: "error fuzzy",
		},
		{
			name: "elision ambiguous", file: "a\nx\nb\ny\nb\n", search: "a\n...\nb\n", replace: "a\n...\nB\n", want: "error ambiguous",
		},
		{
			name: "elision in order", file: "b\na\nx\nb\n", search: "a\n...\nb\n", replace: "A\n...\nB\n", rung: "elision", want: "b\nA\nx\nB\n",
		},
		{
			name: "partial one line", file: "x = foo(a, b) + 1\n", search: "foo(a, b)\n", replace: "bar(a)\n", rung: "partial-line", want: "x = bar(a) + 1\n",
		},
		{
			name: "partial cuts a word", file: "my phone\n", search: "one\n", replace: "two\n", want: "error partial-line",
		},
		{
			name: "partial multi-line", file: "if x { a()\n    b()\n    c() } else {\n", search: "a()\n    b()\n    c()\n", replace: "a2()\n    b()\n    c2()\n",
			rung: "partial-line", want: "if x { a2()\n    b()\n    c2() } else {\n",
		},
		{
			name: "partial ambiguous", file: "f(a) + f(a)\n", search: "f(a)\n", replace: "g\n", want: "error ambiguous",
		},
		{
			name: "partial delete", file: "x = 1  # note\n", search: "# note\n", replace: "", rung: "partial-line", want: "x = 1  \n",
		},
		{
			name: "strict partial line named", file: "x = foo(1)\n", search: "foo(1)\n", replace: "bar\n", want: "error partial-line",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fuzzy := !strings.HasPrefix(tc.name, "strict")
			plan := fuzzyRun(t, tc.file, tc.search, tc.replace, fuzzy)
			if tc.rung == "" {
				errs := plan.Problems.Errors()
				if len(errs) != 1 || "error "+string(errs[0].Kind) != tc.want {
					t.Fatalf("want %s, got %s\n%v", tc.want, problemKinds(plan.Problems), plan.Problems)
				}
				return
			}
			if !plan.OK() {
				t.Fatalf("failed: %v", plan.Problems)
			}
			if got := plan.Blocks[0].Rung; got != tc.rung {
				t.Errorf("rung %q, want %q", got, tc.rung)
			}
			if got := string(plan.Files[0].Bytes()); got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
			if tc.rung != "exact" {
				if len(plan.Problems) != 1 || plan.Problems[0].Kind != KindFuzzy || plan.Problems[0].Severity != SeverityWarning {
					t.Fatalf("want one fuzzy warning, got %s", problemKinds(plan.Problems))
				}
				if msg := plan.Problems[0].Message; !strings.HasPrefix(msg, "block #1 matched only after ") || !strings.Contains(msg, tc.warn) {
					t.Errorf("warning %q, want it to say %q", msg, tc.warn)
				}
			}
		})
	}
}
