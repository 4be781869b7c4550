package mcp

import (
	"bytes"
	"io"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio is the transport of "fsrb mcp": the SDK's stdio transport, with
// Go's HTML escapes taken out of what it writes. The SDK marshals tool
// results with json.Marshal, which writes every "<" of a SEARCH marker,
// a report or a file as \u003c: valid JSON, but a log or a person reading
// the traffic sees the escapes, as --json users did before the CLI
// turned them off.
func Stdio() sdk.Transport {
	return &sdk.IOTransport{Reader: os.Stdin, Writer: &unescaper{w: os.Stdout}}
}

// unescaper writes newline-delimited JSON messages with the escapes
// \u003c, \u003e and \u0026 written as "<", ">" and "&". It works a line
// at a time: JSON text holds no raw newline, so no escape spans two.
type unescaper struct {
	w       io.Writer
	pending []byte // the start of a line not yet ended
}

func (u *unescaper) Write(p []byte) (int, error) {
	u.pending = append(u.pending, p...)
	end := bytes.LastIndexByte(u.pending, '\n')
	if end < 0 {
		return len(p), nil
	}
	if _, err := u.w.Write(unescapeHTML(u.pending[:end+1])); err != nil {
		return 0, err
	}
	u.pending = append(u.pending[:0], u.pending[end+1:]...)
	return len(p), nil
}

// Close leaves standard output open, as the SDK's stdio transport does.
func (u *unescaper) Close() error { return nil }

// unescapeHTML undoes encoding/json's HTML escapes. Only a backslash that
// starts an escape is looked at: an escaped backslash followed by
// "u003c" is text, and stays.
func unescapeHTML(b []byte) []byte {
	if !bytes.Contains(b, []byte(`\u00`)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 == len(b) {
			out = append(out, b[i])
			continue
		}
		if b[i+1] == 'u' && i+6 <= len(b) {
			if c, ok := htmlEscapes[string(b[i+2:i+6])]; ok {
				out = append(out, c)
				i += 5
				continue
			}
		}
		out = append(out, b[i], b[i+1])
		i++
	}
	return out
}

var htmlEscapes = map[string]byte{"003c": '<', "003e": '>', "0026": '&'}
