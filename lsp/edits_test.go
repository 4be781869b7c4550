package lsp

import (
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// Every edit textEdits makes gives the new text, and none is positioned on
// the line after a text's last line break, where clients disagree (Neovim
// 0.10 adds an empty line for an insertion there).
func TestTextEditsStayBeforeFinalLineBreak(t *testing.T) {
	cases := []struct{ old, new string }{
		{"a\nb\n", "a\nb\nc\n"},             // append after the last line
		{"a\nb\n", "a\nb\nc\nd\n"},          // append two
		{"a\nb\n", "a\n"},                   // delete the last line
		{"a\nb\nc\n", "a\n"},                // delete the last two
		{"a\nb\n", "a\nB\n"},                // replace the last line
		{"a\nb\n", "a\nB\nC\n"},             // replace and append
		{"a\n", "b\n"},                      // replace the only line
		{"a\n", "a\nb\n"},                   // append to one line
		{"a\r\nb\r\n", "a\r\nb\r\nc\r\n"},   // CRLF append
		{"a\r\nb\r\n", "a\r\n"},             // CRLF delete the last line
		{"a\nb", "a\nb\nc"},                 // no final line break
		{"\uFEFFa\nb\n", "\uFEFFa\nb\nc\n"}, // BOM
		{"x\ny\nz\n", "w\nx\ny\nz\nq\n"},    // both ends
	}
	for _, c := range cases {
		edits := textEdits(c.old, c.new)
		old := strings.TrimPrefix(c.old, bom)
		m := newMapper(old)
		lines := m.Line(len(old))
		offset := func(p protocol.Position) int {
			off, err := offsetOf(m, p)
			if err != nil {
				t.Fatalf("%q -> %q: %v", c.old, c.new, err)
			}
			return off
		}
		type span struct {
			start, end int
			text       string
		}
		var spans []span
		for _, e := range edits {
			if strings.HasSuffix(old, "\n") && (int(e.Range.End.Line) >= lines || int(e.Range.Start.Line) >= lines) {
				t.Errorf("%q -> %q: edit %+v on the line after the last", c.old, c.new, e.Range)
			}
			spans = append(spans, span{
				offset(e.Range.Start),
				offset(e.Range.End),
				e.NewText,
			})
		}
		got, at := "", 0
		for _, s := range spans {
			got += old[at:s.start] + s.text
			at = s.end
		}
		got += old[at:]
		if want := strings.TrimPrefix(c.new, bom); got != want {
			t.Errorf("%q -> %q: edits give %q", c.old, c.new, got)
		}
	}
}

// The debounce follows what a validation costs, within its bounds.
func TestAdaptiveDebounce(t *testing.T) {
	d := newDiagnoser(nil, DefaultDebounce)
	if got := d.delay(); got != minDebounce {
		t.Errorf("before any validation: %v, want %v", got, minDebounce)
	}
	d.measured(4 * time.Millisecond)
	if got := d.delay(); got != 4*time.Millisecond {
		t.Errorf("after a 4 ms validation: %v", got)
	}
	d.measured(8 * time.Millisecond)
	if got := d.delay(); got != 6*time.Millisecond {
		t.Errorf("after 4 and 8 ms: %v, want the mean of the history and the latest", got)
	}
	for range 10 {
		d.measured(2 * time.Second) // a 10,000-block patch
	}
	if got := d.delay(); got != DefaultDebounce {
		t.Errorf("an expensive patch waits %v, want the ceiling %v", got, DefaultDebounce)
	}
	if got := newDiagnoser(nil, 0).delay(); got != 0 {
		t.Errorf("debounce off: %v", got)
	}
}
