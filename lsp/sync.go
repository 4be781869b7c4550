package lsp

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func (s *Server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	td := params.TextDocument
	return s.modify(modification{kind: modOpen, uri: td.URI, lang: string(td.LanguageID), version: td.Version, text: td.Text, disk: s.readDoc(td.URI)})
}

func (s *Server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	return s.modify(modification{kind: modChange, uri: params.TextDocument.URI, version: params.TextDocument.Version, changes: params.ContentChanges})
}

func (s *Server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	return s.modify(modification{kind: modClose, uri: params.TextDocument.URI})
}

// DidSave checks the disk: a save in the editor (":wall") may have written
// files the editor never synced to the server (disk.go). Then the saved
// document agrees with the disk (stale.go). In that order: the disk check
// compares what the current snapshot read, and a new snapshot has read
// nothing yet.
func (s *Server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	snap := s.checkDisk()
	u := params.TextDocument.URI
	if d, open := snap.docs[u]; !open || d.key == "" {
		return nil
	}
	return s.modify(modification{kind: modSave, uri: u, disk: s.readDoc(u)})
}

// DidChangeWatchedFiles re-validates what depends on the files, and reads
// those open in the editor again (stale.go).
func (s *Server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	m := modification{kind: modFiles}
	for _, c := range params.Changes {
		m.files = append(m.files, c.URI)
	}
	err := s.modify(m)
	s.checkDisk()
	return err
}

// readDoc reads the file of a document from disk, keyed for a
// modification; nil for a document outside the workspace.
func (s *Server) readDoc(u uri.URI) map[string]onDisk {
	v := s.snapshot().view
	k := v.key(u)
	if k == "" {
		return nil
	}
	return map[string]onDisk{k: v.readOnDisk(k)}
}

func (s *Server) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	cur := s.snapshot().settings
	next, ok := parseSettings(params.Settings, cur)
	if !ok {
		return nil
	}
	return s.modify(modification{kind: modSettings, settings: next})
}
