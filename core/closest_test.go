package core

import (
	"math/rand"
	"strings"
	"testing"
)

const closestFile = `package main

import "fmt"

func greet(name string) string {
	if name == "" {
		name = "world"
	}
	return fmt.Sprintf("hello, %s", name)
}

func add(a, b int) int {
	return a + b
}

func main() {
	fmt.Println(greet("fsrb"))
	fmt.Println(add(2, 3))
}
`

func TestClosestTypoInMiddleLine(t *testing.T) {
	search := "func greet(name string) string {\n" +
		"\tif name == \"\" {\n" +
		"\t\tnmae = \"world\"\n" +
		"\t}\n" +
		"\treturn fmt.Sprintf(\"hello, %s\", name)\n"
	c, ok := Closest(closestFile, search)
	if !ok {
		t.Fatal("not found")
	}
	if c.Line != 5 || c.EndLine != 9 {
		t.Errorf("lines %d-%d, want 5-9", c.Line, c.EndLine)
	}
	if c.Similarity < 0.85 || c.Similarity >= 1 {
		t.Errorf("similarity %.3f, want in [0.85, 1)", c.Similarity)
	}
	if c.Context != "func greet(name string) string {" {
		t.Errorf("context %q", c.Context)
	}
	wantText := strings.Replace(search, "nmae", "name", 1)
	if c.Text != wantText {
		t.Errorf("text %q, want %q", c.Text, wantText)
	}
	for _, want := range []string{"--- SEARCH", "+++ file lines 5-9", "-\t\tnmae = \"world\"", "+\t\tname = \"world\""} {
		if !strings.Contains(c.Diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, c.Diff)
		}
	}
}

func TestClosestIndentationOnly(t *testing.T) {
	// SEARCH lost the tabs and uses two spaces instead.
	search := "func add(a, b int) int {\n  return a + b\n}\n"
	c, ok := Closest(closestFile, search)
	if !ok {
		t.Fatal("not found")
	}
	if c.Line != 12 || c.EndLine != 14 {
		t.Errorf("lines %d-%d, want 12-14", c.Line, c.EndLine)
	}
	if c.Similarity < 0.95 {
		t.Errorf("similarity %.3f, want >= 0.95", c.Similarity)
	}
	// Every line of the block de-indented.
	search = "fmt.Println(greet(\"fsrb\"))\nfmt.Println(add(2, 3))\n"
	c, ok = Closest(closestFile, search)
	if !ok || c.Line != 17 || c.EndLine != 18 || c.Similarity < 0.95 {
		t.Errorf("got %+v, %v; want lines 17-18 with similarity >= 0.95", c, ok)
	}
}

func TestClosestUnrelated(t *testing.T) {
	search := "SELECT id, title FROM posts\nWHERE published_at > NOW()\nORDER BY id DESC;\n"
	if c, ok := Closest(closestFile, search); ok {
		t.Errorf("unrelated text matched %+v", c)
	}
}

func TestClosestEmpty(t *testing.T) {
	if _, ok := Closest("", "a\n"); ok {
		t.Error("empty file matched")
	}
	if _, ok := Closest("a\n", ""); ok {
		t.Error("empty search matched")
	}
	if _, ok := Closest("a\n\n", "\n  \n"); ok {
		t.Error("blank search matched")
	}
}

func TestClosestSearchLongerThanFile(t *testing.T) {
	file := "alpha := 1\nbeta := 2\ngamma := 3\n"
	c, ok := Closest(file, file+"delta := 4\n")
	if !ok || c.Line != 1 || c.EndLine != 3 || c.Text != file {
		t.Fatalf("got %+v, %v; want the whole file", c, ok)
	}
	if c.Similarity < 0.7 {
		t.Errorf("similarity %.3f", c.Similarity)
	}
	long := strings.Repeat("completely different content here\n", 10)
	if c, ok := Closest(file, long); ok {
		t.Errorf("long unrelated search matched %+v", c)
	}
	// One line file, two line search.
	c, ok = Closest("x = compute(y)", "x = compute(y)\nz = x\n")
	if !ok || c.Line != 1 || c.EndLine != 1 || c.Text != "x = compute(y)\n" {
		t.Errorf("got %+v, %v", c, ok)
	}
}

func TestClosestDroppedAndAddedLine(t *testing.T) {
	// The file has a line SEARCH lacks.
	search := "func greet(name string) string {\n" +
		"\tif name == \"\" {\n" +
		"\t}\n" +
		"\treturn fmt.Sprintf(\"hello, %s\", name)\n"
	c, ok := Closest(closestFile, search)
	if !ok || c.Line != 5 || c.EndLine != 9 {
		t.Errorf("added line: got %d-%d (%v), want 5-9", c.Line, c.EndLine, ok)
	}
	// SEARCH has a line the file lacks.
	search = "func add(a, b int) int {\n" +
		"\ta, b = b, a\n" +
		"\treturn a + b\n" +
		"}\n"
	c, ok = Closest(closestFile, search)
	if !ok || c.Line != 12 || c.EndLine != 14 {
		t.Errorf("dropped line: got %d-%d (%v), want 12-14", c.Line, c.EndLine, ok)
	}
}

func TestClosestNoExactLine(t *testing.T) {
	// One line with a typo: no line of the file is equal to it.
	c, ok := Closest(closestFile, "\treturn fmt.Sprintf(\"helo, %s\", name)\n")
	if !ok || c.Line != 9 || c.EndLine != 9 {
		t.Errorf("one line: got %+v, %v; want line 9", c, ok)
	}
	// A typo on every line.
	search := "fucn main() {\n\tfmt.Printn(greet(\"fsrb\"))\n\tfmt.Println(ad(2, 3))\n]\n"
	c, ok = Closest(closestFile, search)
	if !ok || c.Line != 16 || c.EndLine != 19 {
		t.Errorf("every line: got %+v, %v; want lines 16-19", c, ok)
	}
}

func TestClosestTiePrefersEarliest(t *testing.T) {
	block := "x := load(path)\nif x == nil {\n\treturn errMissing\n}\n"
	file := "// one\n" + block + "// two\n" + block
	search := strings.Replace(block, "errMissing", "errMisisng", 1)
	c, ok := Closest(file, search)
	if !ok || c.Line != 2 || c.EndLine != 5 {
		t.Errorf("got %+v, %v; want the first copy, lines 2-5", c, ok)
	}
}

func TestClosestNoFinalNewline(t *testing.T) {
	file := "one()\ntwo()\nthree()"
	c, ok := Closest(file, "two()\nthee()")
	if !ok || c.Line != 2 || c.EndLine != 3 || c.Text != "two()\nthree()\n" {
		t.Errorf("got %+v, %v", c, ok)
	}
	if !strings.Contains(c.Diff, "-thee()") || !strings.Contains(c.Diff, "+three()") {
		t.Errorf("diff:\n%s", c.Diff)
	}
}

func TestClosestLongSearch(t *testing.T) {
	// More than 16 lines takes the map path for exact lines.
	file := closestCodeFile(2000, 7)
	lines := strings.SplitAfter(file, "\n")
	from := 1000
	block := lines[from : from+30]
	mid := block[15]
	block[15] = strings.Replace(mid, "(", "[", 1)
	c, ok := Closest(file, strings.Join(block, ""))
	block[15] = mid
	if !ok || c.Line != from+1 || c.EndLine != from+30 {
		t.Errorf("got lines %d-%d (%v), want %d-%d", c.Line, c.EndLine, ok, from+1, from+30)
	}
}

func TestClosestGenerated(t *testing.T) {
	for _, n := range []int{5000, 50000} {
		file, search, line := closestBenchInput(n)
		c, ok := Closest(file, search)
		if !ok || c.Line != line || c.EndLine != line+4 || c.Similarity < 0.9 {
			t.Errorf("%d lines: got %d-%d similarity %.3f (%v), want %d-%d", n, c.Line, c.EndLine, c.Similarity, ok, line, line+4)
		}
	}
}

// lineSimilarity is the similarity (0..1) of two lines (without line
// breaks) as Closest measures it: 1 for equal lines, a little less when only
// whitespace around the content differs, and 1 minus the Levenshtein distance
// of the trimmed contents over the longer one's length otherwise.
func lineSimilarity(a, b string) float64 {
	var lv closestLev
	la, lb := closestSplit(a), closestSplit(b)
	return 1 - min(1, lv.cost(la, lb)/max(la.w, lb.w))
}

func TestLineSimilarity(t *testing.T) {
	for _, tc := range []struct {
		a, b   string
		lo, hi float64
	}{
		{"return a + b", "return a + b", 1, 1},
		{"\treturn a + b", "    return a + b  ", 0.97, 0.99},
		{"return a + b", "retrun a + b", 0.8, 0.9},
		{"return a + b", "x := []int{1, 2, 3}", 0, 0.3},
		{"", "", 1, 1},
	} {
		if got := lineSimilarity(tc.a, tc.b); got < tc.lo || got > tc.hi {
			t.Errorf("lineSimilarity(%q, %q) = %.3f, want in [%.2f, %.2f]", tc.a, tc.b, got, tc.lo, tc.hi)
		}
	}
}

func TestClosestLevDistance(t *testing.T) {
	naive := func(a, b string) int {
		d := make([][]int, len(a)+1)
		for i := range d {
			d[i] = make([]int, len(b)+1)
			d[i][0] = i
		}
		for j := range d[0] {
			d[0][j] = j
		}
		for i := 1; i <= len(a); i++ {
			for j := 1; j <= len(b); j++ {
				c := 1
				if a[i-1] == b[j-1] {
					c = 0
				}
				d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+c)
			}
		}
		return d[len(a)][len(b)]
	}
	rnd := rand.New(rand.NewSource(1))
	word := func(n int) string { return randText(rnd, "abcd", n) }
	var lv closestLev
	for i := 0; i < 3000; i++ {
		a, b := word(rnd.Intn(90)), word(rnd.Intn(90))
		if rnd.Intn(3) == 0 { // near copies exercise the prefix/suffix trim
			b = a[:len(a)/2] + word(rnd.Intn(3)) + a[len(a)/2:]
		}
		if got, want := lv.distance(a, b), naive(a, b); got != want {
			t.Fatalf("distance(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}

func TestClosestLongLines(t *testing.T) {
	// Minified text: one huge line against a long SEARCH line stays cheap
	// (the quadratic distance is bounded) and matches nothing.
	rnd := rand.New(rand.NewSource(2))
	word := func(n int) string { return randText(rnd, "abcdefghijklmnopqrstuvwxyz", n) }
	file := "short line\n" + word(200000) + "\nlast line\n"
	if c, ok := Closest(file, word(500)+"\n"); ok {
		t.Errorf("matched %d-%d similarity %.3f", c.Line, c.EndLine, c.Similarity)
	}
}
