package lsp

import (
	"fmt"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// This file is the one conversion between LSP positions (zero-based line,
// UTF-16 column) and the byte offsets core works in, in both directions,
// over a document's mapper. Every handler converts through it.
//
// A position from the client is checked, not clamped:
//
//   - a character past the end of its line means the end of the line:
//     LSP says so ("If the character value is greater than the line
//     length it defaults back to the line length"), so that is the
//     reading, not a repair;
//   - the line just past the last one, at character 0, is the end of the
//     document (clients end whole-document ranges there, as Neovim does;
//     gopls accepts it too);
//   - any other line past the last is an error: the client and the server
//     disagree about the text, and a guess would edit the wrong place. A
//     request answers InvalidParams; a didChange, which has no answer, is
//     logged and ignored, the document keeping its last good text
//     (modify.go);
//   - a range that ends before it starts is an error too.
//
// The other direction takes spans core computed from the very text the
// mapper indexes: an offset outside it would be a bug in the engine, not
// input, so toRange has no error to return.

// mapper converts between byte offsets of one text and LSP positions: core's
// line index, and whether the text is all ASCII, in which case a UTF-16
// column is a byte column and converts in O(1) (otherwise a line is decoded
// up to the column, and an editor typing on a 10,000-character line would
// make each keystroke cost the whole line).
type mapper struct {
	*core.Lines
	ascii bool
}

func newMapper(text string) *mapper {
	return &mapper{Lines: core.NewLines(text), ascii: isASCII(text)}
}

// splice is the mapper of the text with sp replaced by repl: a change costs
// what it changes (core.Lines.Splice), the whole text being scanned again
// only when the change takes out text that is not ASCII.
func (m *mapper) splice(sp core.Span, repl string) *mapper {
	ascii := m.ascii && isASCII(repl)
	l := m.Lines.Splice(sp, repl)
	if !m.ascii && !isASCII(m.Text()[sp.Start:sp.End]) {
		ascii = isASCII(l.Text())
	}
	return &mapper{Lines: l, ascii: ascii}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// offsetOf is the byte offset of a client's position in the text m indexes.
func offsetOf(m *mapper, p protocol.Position) (int, error) {
	line, lines := int(p.Line), m.LineCount()
	switch {
	case line < lines:
		return m.offset(line, int(p.Character)), nil
	case line == lines && p.Character == 0:
		return len(m.Text()), nil
	}
	return 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("fsrb: position %d:%d is past the end of the document (%d lines)", p.Line, p.Character, lines))
}

// offset is the byte offset of a UTF-16 column of line; a column past the
// line's end is its end.
func (m *mapper) offset(line, col int) int {
	off, end := m.LineStart(line), m.LineEnd(line)
	if m.ascii {
		return off + min(col, end-off)
	}
	text := m.Text()
	for n := 0; off < end && n < col; {
		r, size := utf8.DecodeRuneInString(text[off:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		off += size
	}
	return off
}

// spanOf is the byte span of a client's range in the text m indexes.
func spanOf(m *mapper, r protocol.Range) (core.Span, error) {
	start, err := offsetOf(m, r.Start)
	if err != nil {
		return core.Span{}, err
	}
	end, err := offsetOf(m, r.End)
	if err != nil {
		return core.Span{}, err
	}
	if end < start {
		return core.Span{}, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("fsrb: range %d:%d-%d:%d ends before it starts", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character))
	}
	return core.Span{Start: start, End: end}, nil
}

// toPosition is the LSP position of a byte offset of the text m indexes.
func toPosition(m *mapper, offset int) protocol.Position {
	line := m.Line(offset)
	start := m.LineStart(line)
	col := offset - start
	if !m.ascii {
		col = 0
		for _, r := range m.Text()[start:offset] {
			if r >= 0x10000 {
				col += 2
			} else {
				col++
			}
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

// toRange is the LSP range of a span of the text m indexes; an empty or
// reversed span is the empty range at its start.
func toRange(m *mapper, sp core.Span) protocol.Range {
	return protocol.Range{Start: toPosition(m, sp.Start), End: toPosition(m, max(sp.Start, sp.End))}
}
