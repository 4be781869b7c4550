package lsp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

const bom = "\uFEFF"

// errFileOps explains why a client cannot take an edit that creates or
// deletes files; a partial edit would break the all-or-nothing promise.
type errFileOps struct{ ops []string }

func (e *errFileOps) Error() string {
	return fmt.Sprintf("fsrb: this patch has to %s files, and the editor does not accept file operations from a language server "+
		"(workspace.workspaceEdit.resourceOperations); nothing was changed. Apply it with the command line: fsrb <patch>",
		strings.Join(e.ops, " and "))
}

// workspaceEdit turns a plan into ONE edit: versioned TextDocumentEdits with
// minimal edits, plus CreateFile and DeleteFile, in the order the patch
// names the files. The server never writes files itself.
func (s *snapshot) workspaceEdit(plan *core.Plan, caps clientCaps) (*protocol.WorkspaceEdit, error) {
	if plan == nil || len(plan.Files) == 0 {
		return nil, errors.New("fsrb: the patch changes nothing")
	}
	var missing []string
	needs := func(op, verb string) {
		if !caps.resourceOps[op] && !contains(missing, verb) {
			missing = append(missing, verb)
		}
	}
	for _, fc := range plan.Files {
		switch {
		case fc.Action == core.ActionCreate && !fc.Existed:
			needs("create", "create")
		case fc.Action == core.ActionDelete:
			needs("delete", "delete")
		}
	}
	if len(missing) > 0 {
		return nil, &errFileOps{ops: missing}
	}
	for _, fc := range plan.Files {
		if s.pendingOwnEdit(fc.Path) {
			return nil, fmt.Errorf("fsrb: the editor has not yet reported the last edit of %s; nothing was changed: try again in a moment", fc.Display)
		}
		if why := s.staleEdit(fc.Path, fc.Display); why != "" {
			return nil, errors.New(why)
		}
	}

	we := &protocol.WorkspaceEdit{}
	for _, fc := range plan.Files {
		u := s.docURI(fc.Path)
		var version *int32
		if d, ok := s.overlay[fc.Path]; ok {
			v := d.version
			version = &v
		}
		switch {
		case fc.Action == core.ActionDelete:
			we.DocumentChanges = append(we.DocumentChanges, &protocol.DeleteFile{Kind: "delete", URI: u})
		case fc.Action == core.ActionCreate && !fc.Existed:
			we.DocumentChanges = append(we.DocumentChanges,
				&protocol.CreateFile{Kind: "create", URI: u},
				textDocumentEdit(u, nil, []protocol.TextEdit{{NewText: strings.TrimPrefix(string(fc.Bytes()), bom)}}))
		default:
			edits := textEdits(string(fc.Old), string(fc.Bytes()))
			if len(edits) == 0 {
				continue
			}
			if !caps.documentChanges {
				if we.Changes == nil {
					we.Changes = map[uri.URI][]protocol.TextEdit{}
				}
				we.Changes[u] = edits
				continue
			}
			we.DocumentChanges = append(we.DocumentChanges, textDocumentEdit(u, version, edits))
		}
	}
	// Last, once the files in them are gone: the folders the deletions
	// leave empty, deepest first, as the CLI removes them (README.md). Not
	// recursive, so an editor refuses rather than delete a folder that
	// gained a file. VS Code checks a run of deletes as a whole before it
	// performs any, and would find each folder still holding what is
	// deleted in the same run (the files, or docs/guide inside docs): for
	// a client that says so, a CreateFile of the workspace folder, which
	// exists, with ignoreIfExists, does nothing but end the run, so one
	// goes before each folder. Others get none: Neovim would open a
	// buffer named after the folder.
	for _, dir := range s.view.emptiedFolders(plan) {
		if caps.fsrb.ChecksDeleteRuns {
			we.DocumentChanges = append(we.DocumentChanges, &protocol.CreateFile{
				Kind: "create", URI: fileURI(s.view.root), Options: &protocol.CreateFileOptions{IgnoreIfExists: ptr(true)},
			})
		}
		we.DocumentChanges = append(we.DocumentChanges, &protocol.DeleteFile{
			Kind: "delete", URI: s.view.uri(dir), Options: &protocol.DeleteFileOptions{IgnoreIfNotExists: ptr(true)},
		})
	}
	return we, nil
}

// emptiedFolders lists the folders the plan's deletions leave empty,
// deepest first, never the root: commit.EmptiedFolders, the rule a commit
// removes folders by, on the workspace as it is before the deletions.
func (v *view) emptiedFolders(plan *core.Plan) []string {
	if v == nil {
		return nil
	}
	return commit.EmptiedFolders(plan.Files, func(dir string) ([]string, error) {
		entries, err := os.ReadDir(filepath.Join(v.root, filepath.FromSlash(dir)))
		names := make([]string, len(entries))
		for i, e := range entries {
			names[i] = e.Name()
		}
		return names, err
	})
}

// textEdits is the minimal line edits from old to new. Editors hide a BOM,
// so positions are counted without it (core keeps it on both sides).
func textEdits(old, new string) []protocol.TextEdit {
	if strings.HasPrefix(old, bom) && strings.HasPrefix(new, bom) {
		old, new = old[len(bom):], new[len(bom):]
	}
	diff := udiff.Lines(old, new)
	if len(diff) == 0 {
		return nil
	}
	m := newMapper(old)
	out := make([]protocol.TextEdit, 0, len(diff))
	for _, e := range diff {
		start, end, text := beforeFinalEOL(old, e.Start, e.End, e.New)
		out = append(out, protocol.TextEdit{Range: toRange(m, core.Span{Start: start, End: end}), NewText: text})
	}
	return out
}

// beforeFinalEOL moves an edit that reaches the end of a text ending with
// a line break so that it ends before that line break: the same bytes,
// without a position on the line after the last one (line = number of
// lines, character 0), which clients handle differently — Neovim 0.10
// leaves an extra empty line at the end of the file for an insertion
// there, 0.7 and 0.12 do not. Inserting "c\n" at the end of "a\nb\n"
// becomes inserting "\nc" after "b"; deleting the last line "b\n" of
// "a\nb\n" becomes deleting "\nb" after "a".
func beforeFinalEOL(old string, start, end int, text string) (int, int, string) {
	eol := ""
	switch {
	case strings.HasSuffix(old, "\r\n"):
		eol = "\r\n"
	case strings.HasSuffix(old, "\n"):
		eol = "\n"
	}
	if eol == "" || end != len(old) || text != "" && !strings.HasSuffix(text, eol) {
		return start, end, text
	}
	n := len(eol)
	switch {
	case start >= n && old[start-n:start] == eol:
		// start sits at a line start: both ends move back by one line break.
		return start - n, end - n, strings.TrimSuffix(eol+text, eol)
	case start < end && text != "":
		// The edit starts mid-line or at the top: it keeps the final line
		// break instead of rewriting it.
		return start, end - n, strings.TrimSuffix(text, eol)
	}
	return start, end, text
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// documentEdit is an edit of one open document (the patch itself, for quick
// fixes), in the shape the client accepts.
func documentEdit(d *document, edits []protocol.TextEdit, caps clientCaps) *protocol.WorkspaceEdit {
	if !caps.documentChanges {
		return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{d.uri: edits}}
	}
	v := d.version
	return &protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{textDocumentEdit(d.uri, &v, edits)}}
}

// textDocumentEdit edits u at version; a nil version (sent as null) is a
// file the editor has not opened.
func textDocumentEdit(u uri.URI, version *int32, edits []protocol.TextEdit) *protocol.TextDocumentEdit {
	elems := make([]protocol.TextDocumentEditElement, len(edits))
	for i := range edits {
		elems[i] = &edits[i]
	}
	return &protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
		Edits:        elems,
	}
}
