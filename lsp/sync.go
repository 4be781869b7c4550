package lsp

import (
	"context"

	"go.lsp.dev/protocol"
)

func (s *Server) DidOpen(ctx context.Context, params *protocol.DidOpenTextDocumentParams) error {
	td := params.TextDocument
	return s.modify(modification{kind: modOpen, uri: td.URI, lang: string(td.LanguageID), version: td.Version, text: td.Text})
}

func (s *Server) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) error {
	return s.modify(modification{kind: modChange, uri: params.TextDocument.URI, version: params.TextDocument.Version, changes: params.ContentChanges})
}

func (s *Server) DidClose(ctx context.Context, params *protocol.DidCloseTextDocumentParams) error {
	return s.modify(modification{kind: modClose, uri: params.TextDocument.URI})
}

// DidSave checks the disk: a save in the editor (":wall") may have written
// files the editor never synced to the server (disk.go).
func (s *Server) DidSave(ctx context.Context, params *protocol.DidSaveTextDocumentParams) error {
	s.checkDisk()
	return nil
}

func (s *Server) DidChangeWatchedFiles(ctx context.Context, params *protocol.DidChangeWatchedFilesParams) error {
	m := modification{kind: modFiles}
	for _, c := range params.Changes {
		m.files = append(m.files, c.URI)
	}
	return s.modify(m)
}

func (s *Server) DidChangeConfiguration(ctx context.Context, params *protocol.DidChangeConfigurationParams) error {
	cur := s.snapshot().settings
	next, ok := parseSettings(params.Settings, cur)
	if !ok {
		return nil
	}
	return s.modify(modification{kind: modSettings, settings: next})
}
