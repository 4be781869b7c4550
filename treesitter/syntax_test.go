package treesitter

import (
	"strings"
	"testing"
)

// edit replaces the only occurrence of old in src and returns the new text
// and the edited range of it.
func edit(t *testing.T, src, old, new string) (string, [2]int) {
	t.Helper()
	if strings.Count(src, old) != 1 {
		t.Fatalf("%q occurs %d times", old, strings.Count(src, old))
	}
	i := strings.Index(src, old)
	return src[:i] + new + src[i+len(old):], [2]int{i, i + len(new)}
}

const goBroken = `package a

func a() int {
	return 1 +
}

func b() int {
	x := 1
	return x
}

func c() int {
	return 3
}
`

func lines(errs []SyntaxError) []int {
	var out []int
	for _, e := range errs {
		out = append(out, e.Line)
	}
	return out
}

func TestSyntaxErrorsOldErrorsElsewhereAreNotReported(t *testing.T) {
	// a() is broken before and after; the edit in b() is fine.
	after, r := edit(t, goBroken, "x := 1\n", "x := 2\n")
	if errs := DefaultCache.SyntaxErrors("a.go", []byte(goBroken), []byte(after), [][2]int{r}); len(errs) != 0 {
		t.Errorf("got %v", errs)
	}
	// Lines added above the old error move it; it is still not new.
	after, r = edit(t, goBroken, "package a\n", "package a\n\nimport \"os\"\n\nvar _ = os.Args\n")
	if errs := DefaultCache.SyntaxErrors("a.go", []byte(goBroken), []byte(after), [][2]int{r}); len(errs) != 0 {
		t.Errorf("got %v", errs)
	}
}

func TestSyntaxErrorsNewErrorNextToAnOldOne(t *testing.T) {
	// The edit breaks b() while a() stays broken: only b() is reported.
	after, r := edit(t, goBroken, "\tx := 1\n", "\tx := (1\n")
	errs := DefaultCache.SyntaxErrors("a.go", []byte(goBroken), []byte(after), [][2]int{r})
	if got := lines(errs); len(got) != 1 || got[0] != 8 && got[0] != 9 {
		t.Fatalf("lines %v, want one error at line 8 or 9: %v", got, errs)
	}
	if !strings.HasPrefix(errs[0].Message, "leaves a syntax error at line ") {
		t.Errorf("message %q", errs[0].Message)
	}
}

func TestSyntaxErrorsEditInsideAnOldError(t *testing.T) {
	// Rewriting the broken line of a() into another broken line adds nothing.
	after, r := edit(t, goBroken, "\treturn 1 +\n", "\treturn 2 +\n")
	if errs := DefaultCache.SyntaxErrors("a.go", []byte(goBroken), []byte(after), [][2]int{r}); len(errs) != 0 {
		t.Errorf("got %v", errs)
	}
	// Fixing it reports nothing either.
	after, r = edit(t, goBroken, "\treturn 1 +\n", "\treturn 1\n")
	if errs := DefaultCache.SyntaxErrors("a.go", []byte(goBroken), []byte(after), [][2]int{r}); len(errs) != 0 {
		t.Errorf("got %v", errs)
	}
}

func TestSyntaxErrorsTwoEdits(t *testing.T) {
	src := strings.Replace(goBroken, "\treturn 1 +\n", "\treturn 1\n", 1) // a clean file
	mid, r1 := edit(t, src, "\treturn 1\n", "\treturn 10\n")
	after, r2 := edit(t, mid, "\treturn 3\n", "\treturn [3\n")
	errs := DefaultCache.SyntaxErrors("a.go", []byte(src), []byte(after), [][2]int{r2, r1})
	if got := lines(errs); len(got) != 1 || got[0] < 13 || got[0] > 14 {
		t.Fatalf("lines %v, want one error at line 13 or 14: %v", got, errs)
	}
}

func TestSyntaxErrorsMissingNode(t *testing.T) {
	src := "fn main() {\n    let x = 1;\n    let y = 2;\n}\n"
	after, r := edit(t, src, "    let x = 1;\n", "    let x = 1\n")
	errs := DefaultCache.SyntaxErrors("main.rs", []byte(src), []byte(after), [][2]int{r})
	if len(errs) != 1 || errs[0].Line != 2 || errs[0].Missing != ";" || errs[0].Message != `leaves a syntax error at line 2 (missing ";")` {
		t.Fatalf("got %+v", errs)
	}
}

func TestSyntaxErrorsUnknownLanguageAndBadRanges(t *testing.T) {
	if errs := DefaultCache.SyntaxErrors("notes.txt", []byte("a\n"), []byte("(\n"), [][2]int{{0, 2}}); errs != nil {
		t.Errorf("unknown language: %v", errs)
	}
	// Ranges that do not fit the texts fall back to their difference.
	after, _ := edit(t, goBroken, "\treturn 3\n", "\treturn [3\n")
	errs := DefaultCache.SyntaxErrors("a.go", []byte(goBroken), []byte(after), [][2]int{{-5, 1 << 30}, {3, 1}})
	if len(errs) != 1 || errs[0].Line != 13 {
		t.Errorf("got %+v", errs)
	}
}

func TestAlignEdits(t *testing.T) {
	before := []byte("one\ntwo\nthree\nfour\n")
	after := []byte("one\n2\nthree\n4\n4\n")
	got := alignEdits(before, after, [][2]int{{12, 16}, {4, 6}})
	want := []editRegion{{aStart: 4, aEnd: 6, bStart: 4, bEnd: 8}, {aStart: 12, aEnd: 16, bStart: 14, bEnd: 19}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestIndexLong(t *testing.T) {
	long := strings.Repeat("ab", 40)
	for _, c := range []struct{ s, sep string }{
		{"xx" + long + "yy", long},
		{long[:70] + "c" + long + long, long + "a"},
		{long[:70], long},
		{"abc", "bc"},
		{"abc", ""},
		{strings.Repeat("a", 100) + "b", strings.Repeat("a", 50) + "b"},
		{strings.Repeat("a", 10) + "b", strings.Repeat("a", 50) + "b"},
	} {
		if got, want := indexLong(c.s, c.sep), strings.Index(c.s, c.sep); got != want {
			t.Errorf("indexLong(%q, %q) = %d, want %d", c.s, c.sep, got, want)
		}
		if got, want := indexLong([]byte(c.s), []byte(c.sep)), strings.Index(c.s, c.sep); got != want {
			t.Errorf("indexLong(%q, %q) = %d, want %d", c.s, c.sep, got, want)
		}
	}
}
