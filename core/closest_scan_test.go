package core

import (
	"math/rand"
	"strings"
	"testing"
)

// checkScan holds scan to scanRef on text and search: the same line starts
// and the same windows kept by each signal, with the second half starting at
// every line start of text (and with no second half).
func checkScan(t *testing.T, text, search string) {
	t.Helper()
	sc := new(closestScratch)
	if text == "" || !sc.setSearch(search) {
		return
	}
	votes, tris := sc.scanRef(text)
	off := append([]int(nil), sc.off...)
	splits := append([]int(nil), off[1:len(off)-1]...)
	splits = append(splits, len(text))
	for _, split := range splits {
		sc.scanAt(text, split)
		var got []int
		for j := 0; j <= sc.n; j++ {
			got = append(got, sc.start(j))
		}
		if !slicesEqual(got, off) {
			t.Fatalf("split at %d: line starts %v, want %v", split, got, off)
		}
		if !votes.same(sc.votes) || !tris.same(sc.tris) {
			t.Fatalf("split at %d:\nvotes %+v\nwant  %+v\ntris  %+v\nwant  %+v\ntext %q\nsearch %q",
				split, sc.votes, votes, sc.tris, tris, text, search)
		}
	}
}

func slicesEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// closestRandomInput draws a file from a small vocabulary of lines (so that
// exact lines, shared trigrams and equal scores are common) and a SEARCH
// cut from it or made up, sometimes with a typo, a changed indentation or a
// line more or less.
func closestRandomInput(rnd *rand.Rand) (text, search string) {
	vocab := []string{"}", "", "\treturn nil, err", "if err != nil {", "x := load(path)", "\tx++", "  y = f(x, y)", "return x", "ab", "a", "// note", "for i := range xs {",
		"        deep(x)", "            \t y = 1  ", "                ", "        \v        z"}
	lines := make([]string, 1+rnd.Intn(60))
	for i := range lines {
		lines[i] = vocab[rnd.Intn(len(vocab))]
	}
	text = strings.Join(lines, "\n")
	if rnd.Intn(4) > 0 {
		text += "\n"
	}
	m := 1 + rnd.Intn(20)
	var s []string
	if rnd.Intn(4) > 0 {
		from := rnd.Intn(len(lines))
		s = append(s, lines[from:min(len(lines), from+m)]...)
	} else {
		for range m {
			s = append(s, vocab[rnd.Intn(len(vocab))])
		}
	}
	switch i := rnd.Intn(len(s)); rnd.Intn(5) {
	case 0:
		s[i] = strings.Replace(s[i], "r", "rr", 1)
	case 1:
		s[i] = "    " + strings.TrimSpace(s[i])
	case 2:
		s = append(s[:i], s[i+1:]...)
	case 3:
		s = append(s[:i], append([]string{"extra()"}, s[i:]...)...)
	}
	return text, strings.Join(s, "\n") + "\n"
}

func TestClosestScanMatchesSerial(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for range 3000 {
		text, search := closestRandomInput(rnd)
		checkScan(t, text, search)
	}
	// Generated code, with SEARCH of more than 16 lines (the map path).
	file := closestCodeFile(300, 5)
	lines := strings.SplitAfter(file, "\n")
	for _, m := range []int{1, 5, 17, 30} {
		block := append([]string(nil), lines[140:140+m]...)
		block[m/2] = strings.Replace(block[m/2], "e", "ee", 1)
		checkScan(t, file, strings.Join(block, ""))
	}
}

// A best window that straddles the split, and two equally good windows one
// in each half, come out as the serial scan has them.
func TestClosestSplitEdges(t *testing.T) {
	block := "x := load(path)\nif x == nil {\n\treturn errMissing\n}\nuse(x)\n"
	search := strings.Replace(block, "errMissing", "errMisisng", 1)
	filler := func(n int, tag string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString("other" + tag + strings.Repeat("z", i%7) + "()\n")
		}
		return b.String()
	}
	straddle := filler(40, "a") + block + filler(40, "b")
	twice := filler(30, "a") + block + filler(30, "b") + block + filler(30, "c")
	for _, tc := range []struct {
		name, text string
		line       int
	}{
		{"straddle", straddle, 41},
		{"tie", twice, 31},
	} {
		serial, ok := closestAt(tc.text, search, len(tc.text))
		if !ok || serial.Line != tc.line {
			t.Fatalf("%s: serial scan got line %d (%v), want %d", tc.name, serial.Line, ok, tc.line)
		}
		for split := 0; split < len(tc.text); split++ {
			if split > 0 && tc.text[split-1] != '\n' {
				continue
			}
			c, ok := closestAt(tc.text, search, split)
			if !ok || c != serial {
				t.Fatalf("%s, split at byte %d: got %+v (%v), want %+v", tc.name, split, c, ok, serial)
			}
		}
		checkScan(t, tc.text, search)
	}
}

// FuzzClosestScan holds scan, with its second half starting at every line,
// to the serial reference scan.
//
//	go test ./core -run '^$' -fuzz FuzzClosestScan
func FuzzClosestScan(f *testing.F) {
	f.Add("a\nb\nc\n", "b\nc\n")
	f.Add("x := 1\n  y := 2\n}\n\n}\n", "y := 2\n}\n")
	f.Add("one()\ntwo()\nthree()", "two()\nthee()")
	f.Add("a\na\na\na\n", "a\na\n")
	f.Add("ab\n\n\nab\n", "\nab\n")
	f.Fuzz(func(t *testing.T, text, search string) {
		if len(text) > 2000 || len(search) > 500 {
			return
		}
		checkScan(t, text, search)
	})
}

func TestClosestGramScore(t *testing.T) {
	rnd := rand.New(rand.NewSource(4))
	word := func(n int) string { return randText(rnd, "abcde \t{}", n) }
	sc := new(closestScratch)
	for range 200 {
		sc.setSearch(word(rnd.Intn(200)) + "\n" + word(rnd.Intn(40)) + "\n")
		for range 50 {
			l := word(rnd.Intn(120))
			if got, want := sc.gramScore(l), sc.gramScoreRef(l); got != want {
				t.Fatalf("gramScore(%q) = %d, want %d", l, got, want)
			}
		}
	}
}
