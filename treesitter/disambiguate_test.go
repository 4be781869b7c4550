package treesitter

import (
	"strings"
	"testing"
)

func TestWidenOverlappingOccurrences(t *testing.T) {
	// "a\na" occurs twice in "a\na\na" (docs/ARCHITECTURE.md "Fine print"): each
	// occurrence needs the third line, below for the first, above for the
	// second.
	content := "a\na\na\n"
	ws := DefaultCache.Widen("x.txt", content, "a\na\n", "b\n", []int{0, 2})
	if len(ws) != 2 {
		t.Fatalf("%d widenings", len(ws))
	}
	if w := ws[0]; w.Search != "a\na\na\n" || w.Replace != "b\na\n" || w.Above != 0 || w.Below != 1 {
		t.Errorf("first: %+v", w)
	}
	if w := ws[1]; w.Search != "a\na\na\n" || w.Replace != "a\nb\n" || w.Above != 1 || w.Below != 0 {
		t.Errorf("second: %+v", w)
	}
}

func TestWidenAlternatesShortestFirst(t *testing.T) {
	// Two equal lines above and below: three lines up or three down are
	// the shortest; up comes first.
	content := "p\nx\nk\nS\nk\ny\nq\nx\nk\nS\nk\ny\nr\n"
	ws := DefaultCache.Widen("x.txt", content, "S\n", "T\n", []int{strings.Index(content, "S"), strings.LastIndex(content, "S")})
	for i, w := range ws {
		if w.Above != 3 || w.Below != 0 {
			t.Errorf("%d: above %d below %d, want 3, 0 (%q)", i, w.Above, w.Below, w.Search)
		}
	}
	// One equal line on each side: one up and one down is not unique; of
	// two up and two down, up comes first.
	content = "a\nk\nS\nk\nb\nc\nk\nS\nk\nd\n"
	ws = DefaultCache.Widen("x.txt", content, "S\n", "T\n", []int{strings.Index(content, "S"), strings.LastIndex(content, "S")})
	if w := ws[0]; w.Above != 2 || w.Below != 0 || w.Search != "a\nk\nS\n" {
		t.Errorf("got above %d below %d %q", w.Above, w.Below, w.Search)
	}
}

func TestWidenNoFinalNewlineAndNoTrailingNewlineInSearch(t *testing.T) {
	content := "x\nsame\ny\nsame"
	ws := DefaultCache.Widen("x.txt", content, "same", "other", []int{2, 9})
	if ws[0].Search != "x\nsame" || ws[0].Replace != "x\nother" {
		t.Errorf("first: %q / %q", ws[0].Search, ws[0].Replace)
	}
	if ws[1].Search != "y\nsame" || ws[1].Replace != "y\nother" {
		t.Errorf("second: %q / %q", ws[1].Search, ws[1].Replace)
	}
}

func TestWidenEmptyReplaceDeletes(t *testing.T) {
	content := "a\nS\nb\nS\n"
	ws := DefaultCache.Widen("x.txt", content, "S\n", "  \n", []int{2, 6})
	if ws[0].Search != "a\nS\n" || ws[0].Replace != "a\n" {
		t.Errorf("got %q / %q", ws[0].Search, ws[0].Replace)
	}
}

func TestWidenBadInput(t *testing.T) {
	if ws := DefaultCache.Widen("x.txt", "a\n", " \n", "b\n", []int{0}); ws != nil {
		t.Errorf("blank SEARCH: %v", ws)
	}
	ws := DefaultCache.Widen("x.go", "package a\n\nvar a = 1\nvar a = 1\n", "var a = 1\n", "var b = 1\n", []int{-1, 5, 11, 1000})
	if len(ws) != 4 {
		t.Fatalf("%d widenings", len(ws))
	}
	for _, i := range []int{0, 1, 3} {
		if ws[i].Search != "" || ws[i].Occurrence != i {
			t.Errorf("%d: %+v, want no widening", i, ws[i])
		}
	}
	if ws[2].Search != "\nvar a = 1\n" || ws[2].Line != 3 {
		t.Errorf("2: %+v", ws[2])
	}
}

func TestWidenUnambiguous(t *testing.T) {
	ws := DefaultCache.Widen("x.txt", "a\nb\n", "b\n", "c\n", []int{2})
	if ws[0].Search != "b\n" || ws[0].Above+ws[0].Below != 0 {
		t.Errorf("%+v", ws[0])
	}
}

// TestWidenSignatureTooFar: the signature line is farther than sigSlack
// lines beyond the smallest widening, so the widening goes line by line,
// but the anchor still names the function.
func TestWidenSignatureTooFar(t *testing.T) {
	var b strings.Builder
	b.WriteString("package a\n\n")
	for _, name := range []string{"first", "second"} {
		b.WriteString("func " + name + "() {\n")
		for i := 0; i < 15; i++ {
			b.WriteString("\tstep()\n")
		}
		b.WriteString("\tname := \"" + name + "\"\n\tdone()\n}\n\n")
	}
	content := b.String()
	search := "\tstep()\n\tname := \"x\"\n"
	content = strings.ReplaceAll(content, "\tname := \"first\"\n", "\tname := \"x\"\n\tfirst()\n")
	content = strings.ReplaceAll(content, "\tname := \"second\"\n", "\tname := \"x\"\n\tsecond()\n")
	occ := occurrencesOf(content, search)
	ws := DefaultCache.Widen("a.go", content, search, "\tstep()\n\tname := \"y\"\n", occ)
	for i, want := range []string{"func first() {", "func second() {"} {
		w := ws[i]
		if w.Above != 0 || w.Below != 1 {
			t.Errorf("%d: above %d below %d, want 0, 1", i, w.Above, w.Below)
		}
		if w.Anchor != want {
			t.Errorf("%d: anchor %q, want %q", i, w.Anchor, want)
		}
	}
}

func TestWidenGivesUpPastMaxWiden(t *testing.T) {
	// The two places sit in runs of identical lines: only dozens of lines
	// of context would tell them apart, so no widened block is proposed.
	filler := strings.Repeat("x = 1\n", 40)
	content := "a = 0\n" + filler + "target()\n" + filler + "b = 0\n" + filler + "target()\n" + filler + "c = 0\n"
	first := strings.Index(content, "target()")
	second := first + 1 + strings.Index(content[first+1:], "target()")
	ws := DefaultCache.Widen("f.py", content, "target()\n", "done()\n", []int{first, second})
	if len(ws) != 2 {
		t.Fatalf("%d widenings", len(ws))
	}
	for _, w := range ws {
		if w.Search != "" || w.Line == 0 {
			t.Errorf("occurrence at line %d: proposed %d+%d lines of context", w.Line, w.Above, w.Below)
		}
	}
	// With a distinct line close by, the widening is proposed.
	near := strings.Replace(content, "x = 1\ntarget()", "y = 2\ntarget()", 1)
	first = strings.Index(near, "target()")
	second = first + 1 + strings.Index(near[first+1:], "target()")
	ws = DefaultCache.Widen("f.py", near, "target()\n", "done()\n", []int{first, second})
	if ws[0].Search != "y = 2\ntarget()\n" {
		t.Errorf("near: %q", ws[0].Search)
	}
}

// TestWidenSignatureSlack: the line below each place singles it out (one
// line of context), and the signature is gap+1 lines up. The widening
// reaches the signature while that adds at most sigSlack lines more than
// the one line below, and takes the line below past that.
func TestWidenSignatureSlack(t *testing.T) {
	for gap := 0; gap <= sigSlack+2; gap++ {
		var b strings.Builder
		b.WriteString("package a\n\n")
		for _, name := range []string{"first", "second"} {
			b.WriteString("func " + name + "() {\n")
			for i := 0; i < gap; i++ {
				b.WriteString("\tstep()\n")
			}
			b.WriteString("\tshared()\n\t" + name + "()\n}\n\n")
		}
		content := b.String()
		occ := occurrencesOf(content, "\tshared()\n")
		ws := DefaultCache.Widen("a.go", content, "\tshared()\n", "\tother()\n", occ)
		above, below := gap+1, 0
		if gap+1 > 1+sigSlack {
			above, below = 0, 1
		}
		for i, w := range ws {
			if w.Above != above || w.Below != below {
				t.Errorf("gap %d, place %d: above %d below %d, want %d, %d", gap, i+1, w.Above, w.Below, above, below)
			}
		}
	}
}

// TestWidenShortestRunWithOrWithoutGrammar: the __exit__ case of
// testdata/treesitter/python-exit.txtar in a file of no grammar widens to
// the same shortest run, the line below.
func TestWidenShortestRunWithOrWithoutGrammar(t *testing.T) {
	content := "class A:\n    def __enter__(self):\n        return self\n\n    def __exit__(self, *exc):\n        self.cleanup()\n\n" +
		"class B(A):\n    def __enter__(self):\n        self.repo = make_repo()\n        return self\n\n    def __exit__(self, *exc):\n        del self.repo\n        super().__exit__(*exc)\n"
	search := "    def __exit__(self, *exc):\n"
	for _, path := range []string{"utils.py", "utils.txt"} {
		ws := DefaultCache.Widen(path, content, search, "    def __exit__(self, *args):\n", occurrencesOf(content, search))
		if w := ws[1]; w.Search != search+"        del self.repo\n" || w.Above != 0 || w.Below != 1 {
			t.Errorf("%s: above %d below %d %q", path, w.Above, w.Below, w.Search)
		}
	}
}
