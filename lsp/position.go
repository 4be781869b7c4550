package lsp

import (
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

// This file is the one conversion between LSP positions (zero-based line,
// UTF-16 column) and the byte offsets core works in, in both directions,
// over a document's core.Mapper. Every handler converts through it.
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

// offsetOf is the byte offset of a client's position in the text m indexes.
func offsetOf(m *core.Mapper, p protocol.Position) (int, error) {
	line, lines := int(p.Line), m.LineCount()
	switch {
	case line < lines:
		return m.Offset(line, int(p.Character)), nil
	case line == lines && p.Character == 0:
		return len(m.Text()), nil
	}
	return 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("fsrb: position %d:%d is past the end of the document (%d lines)", p.Line, p.Character, lines))
}

// spanOf is the byte span of a client's range in the text m indexes.
func spanOf(m *core.Mapper, r protocol.Range) (core.Span, error) {
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
func toPosition(m *core.Mapper, offset int) protocol.Position {
	p := m.Position(offset)
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Col)}
}

// toRange is the LSP range of a span of the text m indexes; an empty or
// reversed span is the empty range at its start.
func toRange(m *core.Mapper, sp core.Span) protocol.Range {
	return protocol.Range{Start: toPosition(m, sp.Start), End: toPosition(m, max(sp.Start, sp.End))}
}
