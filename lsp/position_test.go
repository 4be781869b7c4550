package lsp

import (
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// The one conversion between LSP positions and byte offsets: a character
// past a line's end is the line's end (LSP's rule), the line just past the
// last at character 0 is the end of the document, anything further is an
// InvalidParams error; and back again.
func TestPositionMapper(t *testing.T) {
	text := "ab\r\nc€𝄞\n" // € is 3 bytes and 1 UTF-16 unit, 𝄞 4 bytes and 2 units
	m := newMapper(text)
	for _, tc := range []struct {
		line, char uint32
		want       int // -1: an error
	}{
		{0, 0, 0},
		{0, 2, 2},
		{0, 9, 2}, // past the line's end, before its "\r\n"
		{1, 1, 5},
		{1, 2, 8},
		{1, 4, 12},
		{1, 99, 12},
		{2, 0, 13}, // the empty last line
		{2, 5, 13},
		{3, 0, 13}, // just past the last line: the end of the document
		{3, 1, -1},
		{4, 0, -1},
		{4294967295, 4294967295, -1},
	} {
		got, err := offsetOf(m, protocol.Position{Line: tc.line, Character: tc.char})
		switch {
		case tc.want < 0 && err == nil:
			t.Errorf("%d:%d: offset %d, want an error", tc.line, tc.char, got)
		case tc.want < 0:
			if e, ok := err.(*jsonrpc2.Error); !ok || e.Code != jsonrpc2.InvalidParams {
				t.Errorf("%d:%d: error %v, want InvalidParams", tc.line, tc.char, err)
			}
		case err != nil || got != tc.want:
			t.Errorf("%d:%d: offset %d, %v; want %d", tc.line, tc.char, got, err, tc.want)
		case toPosition(m, got).Line != min(tc.line, 2):
			t.Errorf("%d:%d: back to %+v", tc.line, tc.char, toPosition(m, got))
		}
	}
	// Every offset at a character boundary, and not inside a "\r\n",
	// goes there and back.
	for off := range len(text) + 1 {
		if off < len(text) && ((text[off]&0xC0) == 0x80 || text[off] == '\n' && off > 0 && text[off-1] == '\r') {
			continue
		}
		r := toRange(m, core.Span{Start: off, End: off})
		if sp, err := spanOf(m, r); err != nil || sp.Start != off || sp.End != off {
			t.Errorf("offset %d → %+v → %+v, %v", off, r, sp, err)
		}
	}
	if _, err := spanOf(m, protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 0, Character: 1}}); err == nil {
		t.Error("a range ending before it starts: no error")
	}
}

// A didChange with a range outside the document fails as a whole: modify
// then keeps the last good text (abuse_test.go plays it on the wire).
func TestApplyChangesOutOfRange(t *testing.T) {
	text := "one\ntwo\n"
	m := newMapper(text)
	at := func(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }
	good := &protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: at(0, 0), End: at(0, 3)}, Text: "ONE"}
	got, _, err := applyChanges(m, []protocol.TextDocumentContentChangeEvent{good})
	if err != nil || got.Text() != "ONE\ntwo\n" {
		t.Fatalf("good change: %v, %v", got, err)
	}
	far := &protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: at(9, 0), End: at(9, 0)}, Text: "X"}
	if _, _, err := applyChanges(m, []protocol.TextDocumentContentChangeEvent{good, far}); err == nil || !strings.Contains(err.Error(), "change 2 of 2") {
		t.Errorf("out-of-range change: %v", err)
	}
}

// slowOffset is mapper.offset by decoding, the reference for both paths.
func slowOffset(m *mapper, line, col int) int {
	text := m.Text()
	off, end := m.LineStart(line), m.LineEnd(line)
	for n := 0; off < end && n < col; {
		r, size := utf8.DecodeRuneInString(text[off:])
		n++
		if r >= 0x10000 {
			n++
		}
		off += size
	}
	return off
}

func TestMapperColumnsAreUTF16(t *testing.T) {
	for _, text := range []string{
		"plain ascii\r\nsecond line\nthird",
		"a😀b\ncafé\r\nx",
		"",
		"\n\n",
	} {
		m := newMapper(text)
		for line := 0; line < m.LineCount(); line++ {
			for col := 0; col < 16; col++ {
				got, want := m.offset(line, col), slowOffset(m, line, col)
				if got != want {
					t.Errorf("%q: offset(%d, %d) = %d, want %d", text, line, col, got, want)
				}
				if p := toPosition(m, got); int(p.Line) != line {
					t.Errorf("%q: toPosition(%d) = %+v, want line %d", text, got, p, line)
				}
			}
		}
	}
	m := newMapper("a😀b")
	if p := toPosition(m, 5); p.Character != 3 {
		t.Errorf("after the emoji: %+v, want UTF-16 column 3", p)
	}
	if m = newMapper("ab\ncd"); toPosition(m, 4).Character != 1 || m.offset(1, 9) != 5 {
		t.Errorf("ascii: %+v, %d", toPosition(m, 4), m.offset(1, 9))
	}
}

// A mapper spliced change by change converts as one built afresh on the
// final text, ASCII or not, whichever text the changes take out.
func TestMapperSplice(t *testing.T) {
	steps := []struct {
		sp   core.Span
		repl string
	}{
		{core.Span{Start: 0, End: 0}, "abc\n"},
		{core.Span{Start: 4, End: 4}, "café 😀\nx"},
		{core.Span{Start: 4, End: 12}, "plain"},
		{core.Span{Start: 0, End: 0}, "é"},
		{core.Span{Start: 0, End: 2}, ""},
		{core.Span{Start: 3, End: 3}, "\r\n"},
	}
	m := newMapper("")
	for i, st := range steps {
		m = m.splice(st.sp, st.repl)
		want := newMapper(m.Text())
		if m.ascii != want.ascii || m.LineCount() != want.LineCount() {
			t.Fatalf("step %d (%q): ascii %v lines %d, want %v %d", i, m.Text(), m.ascii, m.LineCount(), want.ascii, want.LineCount())
		}
		for off := 0; off <= len(m.Text()); off++ {
			if got, w := toPosition(m, off), toPosition(want, off); got != w {
				t.Fatalf("step %d (%q): offset %d at %v, want %v", i, m.Text(), off, got, w)
			}
		}
	}
}
