package lsp

// This file is the one place that works around the traps of
// go.lsp.dev/protocol v0.12.0 and jsonrpc2 v0.10.0 listed in
// shared/editors/README.md. Each type here replaces a library type that
// cannot say what the protocol needs; nothing else in the package knows
// about the traps.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// WorkspaceEdit replaces protocol.WorkspaceEdit, whose DocumentChanges is a
// []TextDocumentEdit and so cannot carry CreateFile and DeleteFile.
type WorkspaceEdit struct {
	Changes         map[protocol.DocumentURI][]protocol.TextEdit `json:"changes,omitempty"`
	DocumentChanges []DocumentChange                             `json:"documentChanges,omitempty"`
}

// DocumentChange is one entry of documentChanges: exactly one field is set.
type DocumentChange struct {
	Edit   *TextDocumentEdit
	Create *CreateFile
	Delete *DeleteFile
}

func (c DocumentChange) MarshalJSON() ([]byte, error) {
	switch {
	case c.Edit != nil:
		return json.Marshal(c.Edit)
	case c.Create != nil:
		return json.Marshal(c.Create)
	case c.Delete != nil:
		return json.Marshal(c.Delete)
	}
	return nil, fmt.Errorf("empty document change")
}

func (c *DocumentChange) UnmarshalJSON(data []byte) error {
	var probe struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return err
	}
	*c = DocumentChange{}
	switch probe.Kind {
	case "":
		c.Edit = new(TextDocumentEdit)
		return json.Unmarshal(data, c.Edit)
	case "create":
		c.Create = new(CreateFile)
		return json.Unmarshal(data, c.Create)
	case "delete":
		c.Delete = new(DeleteFile)
		return json.Unmarshal(data, c.Delete)
	}
	return fmt.Errorf("unsupported document change kind %q", probe.Kind)
}

// TextDocumentEdit carries an optional version: null for a file the editor
// has not opened (protocol.VersionedTextDocumentIdentifier cannot say null).
type TextDocumentEdit struct {
	TextDocument OptionalVersionedDocument `json:"textDocument"`
	Edits        []protocol.TextEdit       `json:"edits"`
}

// OptionalVersionedDocument is LSP's OptionalVersionedTextDocumentIdentifier.
type OptionalVersionedDocument struct {
	URI     protocol.DocumentURI `json:"uri"`
	Version *int32               `json:"version"`
}

// CreateFile is LSP's CreateFile resource operation.
type CreateFile struct {
	Kind    string               `json:"kind"` // "create"
	URI     protocol.DocumentURI `json:"uri"`
	Options *FileOpOptions       `json:"options,omitempty"`
}

// DeleteFile is LSP's DeleteFile resource operation.
type DeleteFile struct {
	Kind    string               `json:"kind"` // "delete"
	URI     protocol.DocumentURI `json:"uri"`
	Options *FileOpOptions       `json:"options,omitempty"`
}

// FileOpOptions merges the options of CreateFile and DeleteFile.
type FileOpOptions struct {
	Overwrite         bool `json:"overwrite,omitempty"`
	IgnoreIfExists    bool `json:"ignoreIfExists,omitempty"`
	IgnoreIfNotExists bool `json:"ignoreIfNotExists,omitempty"`
	Recursive         bool `json:"recursive,omitempty"` // DeleteFile of a folder; never set: fsrb removes empty folders only
}

// CodeAction replaces protocol.CodeAction to carry our WorkspaceEdit.
type CodeAction struct {
	Title       string                      `json:"title"`
	Kind        protocol.CodeActionKind     `json:"kind,omitempty"`
	Diagnostics []protocol.Diagnostic       `json:"diagnostics,omitempty"`
	IsPreferred bool                        `json:"isPreferred,omitempty"`
	Disabled    *protocol.CodeActionDisable `json:"disabled,omitempty"`
	Edit        *WorkspaceEdit              `json:"edit,omitempty"`
	Command     *protocol.Command           `json:"command,omitempty"`
}

// ApplyWorkspaceEditParams is sent with conn.Call: Client.ApplyEdit takes
// the library's WorkspaceEdit and drops the result's failureReason.
type ApplyWorkspaceEditParams struct {
	Label string        `json:"label,omitempty"`
	Edit  WorkspaceEdit `json:"edit"`
}

// ApplyWorkspaceEditResult is the client's answer to workspace/applyEdit.
type ApplyWorkspaceEditResult struct {
	Applied       bool    `json:"applied"`
	FailureReason string  `json:"failureReason,omitempty"`
	FailedChange  *uint32 `json:"failedChange,omitempty"`
}

// didChangeParams replaces protocol.DidChangeTextDocumentParams, whose
// change Range is not a pointer: a change without a range (the whole text)
// would read as an insertion at 0:0.
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []contentChange                          `json:"contentChanges"`
}

type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// cancelID turns the id of a $/cancelRequest into a jsonrpc2.ID. The
// library's own cancel handler expects an int32, but JSON numbers decode as
// float64, so it never cancels a numeric id.
func cancelID(params json.RawMessage) (jsonrpc2.ID, bool) {
	var p struct {
		ID any `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return jsonrpc2.ID{}, false
	}
	switch id := p.ID.(type) {
	case float64:
		return jsonrpc2.NewNumberID(int32(id)), true
	case string:
		return jsonrpc2.NewStringID(id), true
	}
	return jsonrpc2.ID{}, false
}

// rpcError makes sure every error sent on the wire carries a code: the
// library's replier sends code 0 for a plain Go error.
func rpcError(err error) error {
	if err == nil {
		return nil
	}
	var e *jsonrpc2.Error
	if asRPC(err, &e) {
		return err
	}
	if strings.HasPrefix(err.Error(), jsonrpc2.ErrParse.Error()+": ") {
		// protocol.ServerHandler's params that do not decode: it formats
		// jsonrpc2.ErrParse with %s, so no code comes with it.
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "fsrb: bad params: "+strings.TrimPrefix(err.Error(), jsonrpc2.ErrParse.Error()+": "))
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

func asRPC(err error, target **jsonrpc2.Error) bool {
	for err != nil {
		if e, ok := err.(*jsonrpc2.Error); ok {
			*target = e
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// codeRequestCancelled is LSP's RequestCancelled (-32800).
const codeRequestCancelled jsonrpc2.Code = -32800

// filename converts a file URI into an absolute OS path without panicking
// (uri.URI.Filename panics on anything but a file URI).
func filename(u protocol.DocumentURI) (string, bool) {
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

// fileURI is the URI of an absolute OS path.
func fileURI(path string) protocol.DocumentURI { return uri.File(path) }

// hasExt reports whether the URI's path ends with one of exts (lower case).
func hasExt(u protocol.DocumentURI, exts ...string) bool {
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
