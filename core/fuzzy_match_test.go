package core

import (
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestOccurrencesOverlap(t *testing.T) {
	for _, tc := range []struct {
		text, search string
		want         []int
	}{
		{"a\na\na\n", "a\na\n", []int{0, 2}},
		{"phone\none\n", "one\n", []int{6}},
		{"  x\n  x\n", "  x\n", []int{0, 4}},
		{"\n\n\n", "\n\n", []int{0, 1}},
		{"ab\nxab\n", "ab\n", []int{0}},
		{"if x {\n\ty()\n}\nif x {\n\ty()\n}\n", "\ty()\n}\n", []int{7, 21}},
	} {
		if got := occurrences(tc.text, tc.search, maxOccurrences); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("occurrences(%q, %q) = %v, want %v", tc.text, tc.search, got, tc.want)
		}
	}
}

// occurrencesRef is the obvious definition occurrences must agree with.
func occurrencesRef(text, search string, limit int) []int {
	var out []int
	for at := 0; at+len(search) <= len(text) && len(out) < limit; at++ {
		if (at == 0 || text[at-1] == '\n') && text[at:at+len(search)] == search {
			out = append(out, at)
		}
	}
	return out
}

// FuzzOccurrences checks the anchored search against the obvious one, and
// the finder against strings.Index.
func FuzzOccurrences(f *testing.F) {
	f.Add("a\na\na\n", "a\na\n")
	f.Add("  x = 1\n  y\n  x = 1\n  y\n", "  x = 1\n  y\n")
	f.Add("\t}\n}\n\t}\n}\n", "}\n")
	f.Add("zzz\nQzz\nzzQ\n", "zzQ\n")
	f.Fuzz(func(t *testing.T, text, search string) {
		if search == "" || !strings.HasSuffix(search, "\n") || (text != "" && !strings.HasSuffix(text, "\n")) {
			return
		}
		for _, limit := range []int{2, maxOccurrences} {
			got, want := occurrences(text, search, limit), occurrencesRef(text, search, limit)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("occurrences(%q, %q, %d) = %v, want %v", text, search, limit, got, want)
			}
		}
		needle := strings.TrimSuffix(search, "\n")
		fd := newFinder(needle)
		for from := 0; from <= len(text); from++ {
			want := strings.Index(text[from:], needle)
			if want >= 0 {
				want += from
			}
			if got := fd.index(text, from); got != want {
				t.Fatalf("finder(%q).index(%q, %d) = %d, want %d", needle, text, from, got, want)
			}
		}
	})
}

// Blocks whose best anchor line is common in the file: occurrences drops
// that anchor after a few places that are not the block's and goes on with
// the next line (several times over when the next is common too), and
// still finds every place, overlapping ones included, as the obvious scan
// does. The lines with rare bytes ('K', 'Q', 'Z') are the common ones.
func TestOccurrencesCommonAnchorLine(t *testing.T) {
	rnd := rand.New(rand.NewSource(18))
	// The second vocabulary's short lines put places a byte or two apart,
	// right after the place where an anchor is dropped.
	vocabs := [][]string{
		{"except KeyError:", "except KeyError:", "except KeyError:", "    raise QZ", "    raise QZ",
			"pass", "x = 1", "    y = 2", "", "except KeyError:  # Q"},
		{"except KeyError:", "except KeyError:", "K", "K", "QK", "", ""},
	}
	switched := 0
	for iter := range 6000 {
		words := vocabs[iter%2]
		text := randLines(rnd.Intn, words, 20+rnd.Intn(200))
		ls := strings.SplitAfter(text, "\n")
		ls = ls[:len(ls)-1]
		i := rnd.Intn(len(ls))
		search := strings.Join(ls[i:min(len(ls), i+1+rnd.Intn(5))], "")
		if rnd.Intn(4) == 0 {
			search = randLines(rnd.Intn, words, 1+rnd.Intn(4))
		}
		for _, limit := range []int{1, 2, maxOccurrences} {
			got, want := occurrences(text, search, limit), occurrencesRef(text, search, limit)
			if !slices.Equal(got, want) {
				t.Fatalf("iter %d: occurrences(%q, %q, %d) = %v, want %v", iter, text, search, limit, got, want)
			}
		}
		_, needle := anchorOf(search)
		if needle != "" && strings.Count(text, needle) > 2*anchorMisses {
			switched++
		}
	}
	if switched < 1000 {
		t.Fatalf("only %d trials had an anchor common enough to be dropped", switched)
	}
}

func TestDetectNumbers(t *testing.T) {
	for _, tc := range []struct {
		lines []string
		want  numStyle
		strip []string
	}{
		{[]string{"  12 | a", "  13 |     b", "  14 | "}, numPipe, []string{"a", "    b", ""}},
		{[]string{"12:a", "", "14:c"}, numColon, []string{"a", "", "c"}},
		{[]string{"    7→x", "    8→  y"}, numArrow, []string{"x", "  y"}},
		{[]string{"     7\tx", "     8\t\ty"}, numTab, []string{"x", "\ty"}},
		{[]string{"3:a1b|x", "4:ffe|y"}, numHash, []string{"x", "y"}},
		{[]string{"  3 | a", "...", " 40 | b"}, numPipe, []string{"a", "...", "b"}},              // numbers jump over an elision
		{[]string{"1: a", "3: b"}, numNone, nil},                                                 // not consecutive
		{[]string{"1: a", "b"}, numNone, nil},                                                    // one line has none
		{[]string{"x = 1", "y = 2"}, numNone, nil},                                               // plain code
		{[]string{"8080: http"}, numColon, []string{" http"}},                                    // one line: taken as a prefix
		{[]string{"  12 | a", "     |     b", "  14 | c"}, numPipe, []string{"a", "    b", "c"}}, // a bare gutter on some lines
		{[]string{"| a", "|     b", "|"}, numPipe, []string{"a", "    b", ""}},                   // bare gutters only
		{[]string{"| a | b |", "| 1 | 2 |"}, numNone, nil},                                       // a Markdown table
		{[]string{"  12 | a", "b"}, numNone, nil},                                                // one line has no gutter
		{[]string{"|| true"}, numNone, nil},                                                      // an operator
	} {
		got := detectNumbers(tc.lines)
		if got != tc.want {
			t.Errorf("detectNumbers(%q) = %v, want %v", tc.lines, got, tc.want)
			continue
		}
		if got != numNone {
			if s := stripNumbers(tc.lines, got); !reflect.DeepEqual(s, tc.strip) {
				t.Errorf("stripNumbers(%q) = %q, want %q", tc.lines, s, tc.strip)
			}
		}
	}
}

func TestIsElision(t *testing.T) {
	yes := []string{"...", "  …", "// ...", "# ... existing code ...", "/* ... */", "<!-- … -->", "-- ...", "    // ... rest of the function"}
	no := []string{"x = ...", "foo(...)", "// TODO", "# ... = 3", "....", "'...'", "// ... if (x) { y(); }"}
	for _, l := range yes {
		if !isElision(l) {
			t.Errorf("isElision(%q) = false", l)
		}
	}
	for _, l := range no {
		if isElision(l) {
			t.Errorf("isElision(%q) = true", l)
		}
	}
}

func TestNormTypo(t *testing.T) {
	in := "\u201cA\u201d \u2018b\u2019 c\u2013d\u2014e\u00a0f\u2026g\u200bh\nx"
	want := "\"A\" 'b' c-d-e f...gh\nx"
	if got := normTypo(in); got != want {
		t.Errorf("normTypo = %q, want %q", got, want)
	}
	if s := "plain ascii"; normTypo(s) != s {
		t.Error("ASCII changed")
	}
	norm, pos := normTypoMap("a\u201cb\u200bc")
	if norm != "a\"bc" || !reflect.DeepEqual(pos, []int{0, 1, 4, 8, 9}) {
		t.Errorf("normTypoMap = %q %v", norm, pos)
	}
}

func TestNormViewMapsLines(t *testing.T) {
	text := "a\n\u201cq\u201d\nb\n"
	nv := newNormView(text)
	if nv.same || nv.norm != "a\n\"q\"\nb\n" {
		t.Fatalf("view %+v", nv)
	}
	for i, want := range []int{0, 2, 10, 12} {
		if got := nv.orig(nv.normStarts[i]); got != want {
			t.Errorf("line %d starts at %d, want %d", i, got, want)
		}
	}
	if nv := newNormView("caf\u00e9\n"); !nv.same || nv.normStarts != nil {
		t.Errorf("accented text needs no view: %+v", nv)
	}
}

func TestViewCachePerVersion(t *testing.T) {
	d := loadDoc([]byte("\u201cx\u201d\n"))
	v1 := viewOf(d)
	if viewOf(d) != v1 {
		t.Error("view rebuilt for the same text")
	}
	d.splice(0, len(d.text()), "\u2018y\u2019\n")
	v2 := viewOf(d)
	if v2 == v1 || v2.norm != "'y'\n" {
		t.Errorf("view not rebuilt after a change: %q", v2.norm)
	}
}

func TestIndentDelta(t *testing.T) {
	for _, tc := range []struct {
		search, file, want string
		refused            bool
	}{
		{"x", "    x", "+4 spaces", false},
		{"        x", "    x", "-4 spaces", false},
		{"\tx", "\t\t\tx", "+2 tabs", false},
		{"x", "\tx", "+1 tab", false},
		{"    x", "\tx", "", true},
		{"x", "\t  x", "", true},
		{"  x", "  x", "", false},
	} {
		dl, err := newIndentDelta(tc.search, tc.file)
		if (err != "") != tc.refused || dl.String() != tc.want {
			t.Errorf("delta %q -> %q = %q (%q), want %q refused=%v", tc.search, tc.file, dl.String(), err, tc.want, tc.refused)
		}
	}
	dl := indentDelta{remove: "    "}
	if got := dl.apply([]string{"        a", "  b", "", "\tc"}); !reflect.DeepEqual(got, []string{"    a", "b", "", "\tc"}) {
		t.Errorf("apply = %q", got)
	}
}

func TestPlacements(t *testing.T) {
	a := []span{{0, 2}}
	b := []span{{1, 3}, {4, 6}, {8, 10}}
	c := []span{{5, 7}, {12, 14}}
	got := placements([][]span{a, b, c}, 10)
	want := [][]span{{{0, 2}, {4, 6}, {12, 14}}, {{0, 2}, {8, 10}, {12, 14}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("placements = %v, want %v", got, want)
	}
}

// TestFuzzyStrictUnchanged: without Fuzzy, a block the ladder would match
// is not found, and no rung runs.
func TestFuzzyStrictUnchanged(t *testing.T) {
	plan := fuzzyRun(t, "def f():\n    x = 1\n", "x = 1\n", "x = 2\n", false)
	if errs := plan.Problems.Errors(); len(errs) != 1 || errs[0].Kind != KindNotFound {
		t.Fatalf("got %s", problemKinds(plan.Problems))
	}
}

// TestFuzzySequential: a later block sees what an earlier fuzzy block
// wrote, and the normalized view follows the doc's versions.
func TestFuzzySequential(t *testing.T) {
	file := "say(\u201chi\u201d)\nsay(\u201cbye\u201d)\n"
	blocks := []Block{
		{Number: 1, Path: "f.txt", Op: OpModify, Search: "say(\"hi\")\n", Replace: "say(\"hello\")\n"},
		{Number: 2, Path: "f.txt", Op: OpModify, Search: "say(\"hello\")\nsay(\"bye\")\n", Replace: "done\n"},
	}
	plan := Validate(&Patch{Blocks: blocks}, MapFS{"f.txt": file}, Options{Root: "/w", Fuzzy: true})
	if !plan.OK() {
		t.Fatalf("failed: %v", plan.Problems)
	}
	if got := string(plan.Files[0].Bytes()); got != "done\n" {
		t.Errorf("got %q", got)
	}
	if plan.Blocks[0].Rung != "typography" || plan.Blocks[1].Rung != "typography" {
		t.Errorf("rungs %q %q", plan.Blocks[0].Rung, plan.Blocks[1].Rung)
	}
}
