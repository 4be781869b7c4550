package treesitter

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
)

// localCase is a big file and a patch of search/replace pairs on it.
type localCase struct {
	name      string
	src       string
	edits     [][2]string
	context   int  // localContext for the case; 0: the default
	wantLocal bool // the local texts settle it (no fallback)
	wantErrs  bool
}

func bigPy(n int) string { return pyClasses(n) }

// The syntax check on local texts gives what the whole content gives:
// errors, lines, messages; and it is taken where it should be.
func TestLocalSyntaxMatchesWhole(t *testing.T) {
	src := bigPy(2000) // ~620 KB, 26,000 lines
	line := func(i int) string { return fmt.Sprintf("        self.items[key] = value  # %d\n", i) }
	broken := func(i int) string { return fmt.Sprintf("        self.items[key = value  # %d\n", i) }
	crlf := strings.ReplaceAll(src, "\n", "\r\n")
	cases := []localCase{
		{name: "near start", src: src, edits: [][2]string{{line(3), line(3) + "        x = 1\n"}}, wantLocal: true},
		{name: "middle", src: src, edits: [][2]string{{line(1000), "        pass\n"}}, wantLocal: true},
		{name: "near end", src: src, edits: [][2]string{{line(1998), line(1998) + "        y = 2\n        z = 3\n"}}, wantLocal: true},
		{name: "last line", src: src + "x = 1\n", edits: [][2]string{{"x = 1\n", "x = (1\n"}}, wantLocal: true, wantErrs: true},
		{name: "several", src: src, edits: [][2]string{{line(900), "        pass\n"}, {line(950), broken(950)}, {line(1010), "        q = 1\n"}}, wantLocal: true, wantErrs: true},
		{name: "error", src: src, edits: [][2]string{{line(1500), broken(1500)}}, wantLocal: true, wantErrs: true},
		{name: "crlf", src: crlf, edits: [][2]string{{strings.ReplaceAll(line(1500), "\n", "\r\n"), strings.ReplaceAll(broken(1500), "\n", "\r\n")}}, wantLocal: true, wantErrs: true},
		{name: "bom", src: "\ufeff" + src, edits: [][2]string{{line(5), broken(5)}}, wantLocal: true, wantErrs: true},
		{name: "bom first line", src: "\ufeffimport os\n" + src, edits: [][2]string{{"import os\n", "import (os\n"}}, wantLocal: true, wantErrs: true},
		{name: "no final newline", src: strings.TrimSuffix(src, "\n") + "\nx = 1", edits: [][2]string{{line(1999), broken(1999)}}, wantLocal: true, wantErrs: true},
		{name: "no final newline, last line", src: strings.TrimSuffix(src, "\n") + "\nx = 1", edits: [][2]string{{"x = 1", "x = (1"}}, wantLocal: true, wantErrs: true},
		// Every class is one window of ~11 lines: with 1 line of context
		// the window reaches where the texts were cut.
		{name: "window crosses the cut", src: src, edits: [][2]string{{line(700), broken(700)}}, context: 1, wantErrs: true},
		{name: "window crosses the cut, clean", src: src, edits: [][2]string{{line(700), "        pass\n"}}, context: 2},
		// An error already there: both windows have errors, and the
		// whole content leaves a big file unchecked too.
		{name: "old error", src: strings.Replace(src, line(600), broken(600), 1), edits: [][2]string{{broken(600), broken(600) + "        (\n"}}, wantLocal: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.context > 0 {
				defer func(n int) { localContext = n }(localContext)
				localContext = tc.context
			}
			var patch strings.Builder
			for _, e := range tc.edits {
				fmt.Fprintf(&patch, "big.py\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n", withEOL(e[0]), withEOL(e[1]))
			}
			plan := core.Validate(core.Parse(patch.String(), core.ParseOptions{}), core.MapFS{"big.py": tc.src}, core.Options{})
			if !plan.OK() || len(plan.Files) != 1 {
				t.Fatalf("plan: %v", plan.Problems)
			}
			fc := &plan.Files[0]
			lang := languageOf(fc)
			c := NewCache(4)
			local, ok := c.localSyntaxErrors(fc, lang)
			if ok != tc.wantLocal {
				t.Fatalf("local path taken: %v, want %v", ok, tc.wantLocal)
			}
			got := c.fileSyntaxProblems(plan, fc, lang, new(bytes.Buffer))
			// The whole content, on a plan of its own (its bytes built).
			other := core.Validate(core.Parse(patch.String(), core.ParseOptions{}), core.MapFS{"big.py": tc.src}, core.Options{})
			ofc := &other.Files[0]
			whole := NewCache(4).wholeSyntaxErrors(ofc, lang, nil)
			if ok && fmt.Sprint(local) != fmt.Sprint(whole) {
				t.Errorf("local %+v\nwhole %+v", local, whole)
			}
			if (len(whole) > 0) != tc.wantErrs {
				t.Errorf("whole content errors %+v, want some: %v", whole, tc.wantErrs)
			}
			// And the problems reported, through the old entry point.
			var want core.Problems
			for _, e := range NewCache(4).SyntaxErrors(ofc.Path, ofc.Old, ofc.Bytes(), editRanges(ofc.Lines, ofc.Bytes(), 0)) {
				want = append(want, core.Problem{Line: e.Line, Message: e.Message})
			}
			if len(got) != len(want) {
				t.Fatalf("problems %v, want %v", got, want)
			}
			for i := range got {
				if got[i].Line != want[i].Line {
					t.Errorf("problem %d at line %d, want %d", i, got[i].Line, want[i].Line)
				}
			}
		})
	}
}

func withEOL(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// An edit in the middle of a 400-line function: its window reaches where
// local texts of localFirst lines are cut, so the check takes
// localContext lines, and still settles it locally, with the errors the
// whole content gives.
func TestLocalSyntaxWidensPastTheFirstCut(t *testing.T) {
	var long strings.Builder
	long.WriteString("def long():\n")
	for i := range 400 {
		fmt.Fprintf(&long, "    x%d = %d\n", i, i)
	}
	src := long.String() + bigPy(2000)
	for _, repl := range []string{"    x200 = (200\n", "    x200 = 200 + 1\n"} {
		patch := "big.py\n<<<<<<< SEARCH\n    x200 = 200\n=======\n" + repl + ">>>>>>> REPLACE\n"
		plan := core.Validate(core.Parse(patch, core.ParseOptions{}), core.MapFS{"big.py": src}, core.Options{})
		if !plan.OK() {
			t.Fatalf("plan: %v", plan.Problems)
		}
		fc := &plan.Files[0]
		lang := languageOf(fc)
		c := NewCache(4)
		first, last := fc.Lines[0].Line-1, fc.Lines[0].EndLine
		if _, _, cut := c.localSyntaxErrorsIn(fc, lang, first, last, localFirst); !cut {
			t.Fatalf("%q: the window fits in %d lines around the edit; the case needs one that does not", repl, localFirst)
		}
		local, ok := c.localSyntaxErrors(fc, lang)
		if !ok {
			t.Fatalf("%q: the local texts did not settle it", repl)
		}
		whole := NewCache(4).wholeSyntaxErrors(fc, lang, nil)
		if fmt.Sprint(local) != fmt.Sprint(whole) {
			t.Errorf("%q: local %+v\nwhole %+v", repl, local, whole)
		}
		if (len(whole) > 0) != strings.Contains(repl, "(") {
			t.Errorf("%q: errors %+v", repl, whole)
		}
	}
}
