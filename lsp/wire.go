package lsp

// This file keeps what go.lsp.dev/protocol v1.0.1 and jsonrpc2 v1.0.1 still
// leave to the server. The library now models what v0.12 could not — a
// WorkspaceEdit whose documentChanges mix TextDocumentEdits (null versions
// included) with CreateFile/DeleteFile, applyEdit's failureReason, a
// didChange without a range, $/cancelRequest's numeric ids, the LSP error
// codes — so those types are gone from here. What remains, each with its
// reason:
//
//   - codec: the conn is built by hand (server.go: protocol.NewServer
//     installs its own handler chain, which runs requests concurrently and
//     out of order), and the library's union-aware codec is unexported;
//   - rpcError: jsonrpc2 sends a plain Go error with code 0, and
//     protocol.ServerHandler reports params that do not decode as a
//     ParseError (-32700) where JSON-RPC wants InvalidParams (-32602);
//   - cancelID: protocol.CancelHandler answers a $/cancelRequest whose id
//     it cannot read with an error, which for a notification closes the
//     connection; a bad cancel must be ignored;
//   - fileURI: uri.File of v1 escapes + @ & $ , ; = : in paths (as
//     vscode-uri does), which would change the URIs on the wire; both forms
//     name the same file, so fsrb keeps v0.3's;
//   - filename: uri v1 has no URI-to-path conversion.

import (
	"errors"
	"net/url"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// codec is protocol's payload codec for a conn built by hand.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if m, ok := v.(jsonrpc2.RawMessage); ok {
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// rpcError makes sure every error sent on the wire carries a code.
func rpcError(err error) error {
	if err == nil {
		return nil
	}
	var e *jsonrpc2.Error
	if !errors.As(err, &e) {
		return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	if e.Code == jsonrpc2.ParseError && err != e {
		// protocol.ServerHandler's params that do not decode: it wraps
		// jsonrpc2.ErrParse; the message was parsed, its params are wrong.
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "fsrb: bad params: "+strings.TrimPrefix(err.Error(), e.Error()+": "))
	}
	return err
}

// cancelID reads the id of a $/cancelRequest; ok is false for anything
// but an integer or a string.
func cancelID(params jsonrpc2.RawMessage) (jsonrpc2.ID, bool) {
	var p protocol.CancelParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		return jsonrpc2.ID{}, false
	}
	switch id := p.ID.(type) {
	case protocol.Integer:
		return jsonrpc2.NewNumberID(int64(id)), true
	case protocol.String:
		return jsonrpc2.NewStringID(string(id)), true
	}
	return jsonrpc2.ID{}, false
}

// filename converts a file URI into an absolute OS path without panicking.
func filename(u uri.URI) (string, bool) {
	p, err := url.Parse(string(u))
	if err != nil || p.Scheme != "file" {
		return "", false
	}
	path := p.Path
	if len(path) >= 3 && path[0] == '/' && path[2] == ':' {
		path = path[1:] // /C:/x on Windows
	}
	return filepath.FromSlash(path), true
}

// fileURI is the URI of an absolute OS path, escaped as net/url does.
func fileURI(path string) uri.URI {
	path = filepath.ToSlash(path)
	if len(path) >= 2 && path[1] == ':' {
		path = "/" + path // C:/x on Windows
	}
	return uri.URI((&url.URL{Scheme: "file", Path: path}).String())
}

// hasExt reports whether the URI's path ends with one of exts (lower case).
func hasExt(u uri.URI, exts ...string) bool {
	s := strings.ToLower(string(u))
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	for _, e := range exts {
		if strings.HasSuffix(s, e) {
			return true
		}
	}
	return false
}
