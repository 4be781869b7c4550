package lsp

import (
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/core"
)

type modKind int

const (
	modOpen     modKind = iota // textDocument/didOpen
	modChange                  // textDocument/didChange
	modClose                   // textDocument/didClose
	modFiles                   // workspace/didChangeWatchedFiles: files changed on disk
	modSettings                // workspace/didChangeConfiguration
	modOwnEdit                 // the client applied an edit of ours (disk.go)
	modSave                    // textDocument/didSave
	modSkip                    // a block skipped or included again (skip.go)
)

// modification is one editor event. Every event goes through modify, the
// one function that makes the next snapshot and decides what to re-validate.
type modification struct {
	kind     modKind
	uri      uri.URI
	lang     string
	version  int32
	text     string                                    // modOpen
	changes  []protocol.TextDocumentContentChangeEvent // modChange
	files    []uri.URI                                 // modFiles: from the editor's watchers
	keys     []string                                  // modFiles: found changed by checkDisk
	settings settings                                  // modSettings
	own      map[string]*ownEdit                       // modOwnEdit
	disk     map[string]onDisk                         // modOpen, modSave, modFiles: files as the disk holds them (stale.go)
	skip     *skipChange                               // modSkip
}

func (s *Server) modify(m modification) error {
	s.mu.Lock()
	old := s.snap
	next := old.clone()
	var changed []string // keys of files whose content changed
	affected := map[uri.URI]bool{}
	switch m.kind {
	case modOpen:
		d := &document{uri: m.uri, key: next.view.key(m.uri), lang: m.lang, version: m.version, text: m.text, mapper: core.NewMapper(m.text)}
		if w, ok := next.written[d.key]; ok {
			if !w.deleted && strings.TrimPrefix(w.text, bom) == d.text {
				delete(next.written, d.key) // the editor shows the edit: its buffer is the truth
			}
		}
		next.put(d)
		if disk, ok := m.disk[d.key]; ok && d.key != "" {
			next.synced[d.key] = opened(d.text, disk)
		}
		delete(next.skips, m.uri)
		changed = append(changed, d.key)
		affected[m.uri] = true
	case modChange:
		d, ok := old.docs[m.uri]
		if !ok {
			s.mu.Unlock()
			return fmt.Errorf("fsrb: change to %s, which is not open", m.uri)
		}
		if m.version <= d.version {
			s.mu.Unlock()
			s.log.Info("stale change ignored", zap.String("uri", string(m.uri)), zap.Int32("version", m.version), zap.Int32("have", d.version))
			return nil
		}
		nd := *d
		var err error
		if nd.text, nd.mapper, err = applyChanges(d.text, d.mapper, m.changes); err != nil {
			// A notification has no answer: the change is logged (by the
			// transport) and dropped, whole, and the document keeps its
			// last good text and version (position.go).
			s.mu.Unlock()
			return fmt.Errorf("fsrb: change to %s version %d ignored: %w", m.uri, m.version, err)
		}
		nd.version = m.version
		if marks := old.skips[m.uri]; len(marks) > 0 {
			next.skips[m.uri] = moveSkips(marks, d.text, d.mapper, m.changes)
		}
		next.put(&nd)
		if b, ok := next.synced[d.key]; ok {
			next.synced[d.key] = b.edited(nd.text)
		}
		next.anchorSkips(m.uri, nd.text)
		delete(next.written, d.key) // the editor reported its text after our edit
		changed = append(changed, d.key)
		affected[m.uri] = true
	case modClose:
		if d, ok := old.docs[m.uri]; ok {
			delete(next.docs, m.uri)
			delete(next.skips, m.uri)
			if next.overlay[d.key] == d {
				delete(next.overlay, d.key)
				delete(next.written, d.key) // saved or discarded: the disk says which
				delete(next.synced, d.key)
			}
			changed = append(changed, d.key)
			affected[m.uri] = true // the diagnoser clears what it published
			delete(s.deps, m.uri)
			next.prior.forget(m.uri)
		}
	case modFiles:
		for _, u := range m.files {
			if k := next.view.key(u); k != "" {
				changed = append(changed, k)
			}
		}
		changed = append(changed, m.keys...)
		for _, k := range changed {
			delete(next.written, k) // the disk changed after our edit: it is the truth
		}
		for k, disk := range m.disk {
			b, ok := next.synced[k]
			d, open := next.overlay[k]
			if !ok || !open {
				continue
			}
			if nb := b.reread(d.text, disk); nb != nil {
				next.synced[k] = nb
				changed = append(changed, k)
			}
		}
	case modSave:
		if d, ok := old.docs[m.uri]; ok && d.key != "" {
			if disk, ok := m.disk[d.key]; ok {
				next.synced[d.key] = saved(d.text, disk)
				changed = append(changed, d.key)
			}
		}
	case modOwnEdit:
		for k, w := range m.own {
			if d, open := next.overlay[k]; open && d.version != w.docVersion {
				// The editor reported the document after the edit was
				// computed: showing the edit already, or (opened while the
				// edit was being applied) the text before it, still to
				// change.
				if d.text != strings.TrimPrefix(w.before, bom) {
					continue
				}
				w.docVersion = d.version
			}
			w.before = ""
			next.written[k] = w
			changed = append(changed, k)
		}
	case modSkip:
		next.applySkip(m.uri, m.skip)
		affected[m.uri] = true
	case modSettings:
		next.settings = m.settings
		for u := range next.docs {
			affected[u] = true
		}
	}
	for _, k := range changed {
		if k == "" {
			continue
		}
		for u, d := range next.docs {
			deps, known := s.deps[u]
			if d.served() && (!known || dependsOn(deps, k)) {
				affected[u] = true
			}
		}
	}
	s.snap = next
	s.mu.Unlock()
	s.diag.schedule(next, affected)
	return nil
}

// dependsOn reports whether a patch with these dependencies cares about a
// change to key: the file itself, or, for a folder deleted or renamed on
// disk (one watched-file event for the folder), any file inside it.
func dependsOn(deps map[string]bool, key string) bool {
	if deps[key] {
		return true
	}
	prefix := key + "/"
	for d := range deps {
		if strings.HasPrefix(d, prefix) {
			return true
		}
	}
	return false
}

func (s *snapshot) put(d *document) {
	s.docs[d.uri] = d
	if d.key != "" {
		s.overlay[d.key] = d
	}
}

// applyChanges applies LSP content changes in order: each range is in
// UTF-16 positions of the text as the changes before it left it. A change
// without a range replaces the whole text. A range outside the text
// (position.go) fails them all.
func applyChanges(text string, m *core.Mapper, changes []protocol.TextDocumentContentChangeEvent) (string, *core.Mapper, error) {
	for i, c := range changes {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			text = c.Text
		case *protocol.TextDocumentContentChangePartial:
			sp, err := spanOf(m, c.Range)
			if err != nil {
				return "", nil, fmt.Errorf("change %d of %d: %w", i+1, len(changes), err)
			}
			text = text[:sp.Start] + c.Text + text[sp.End:]
		default:
			continue
		}
		m = core.NewMapper(text)
	}
	return text, m, nil
}

// recordDeps remembers which files a patch's latest analysis named.
func (s *Server) recordDeps(u uri.URI, a *analysis) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, open := s.snap.docs[u]; open {
		s.deps[u] = a.deps
	}
}
