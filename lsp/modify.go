package lsp

import (
	"errors"
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

// modify makes the next snapshot from one editor event, under the lock,
// and schedules what it affects for validation.
func (s *Server) modify(m modification) error {
	next, affected, err := s.advance(m)
	if err != nil {
		if errors.Is(err, errUnchanged) {
			return nil
		}
		return err
	}
	s.diag.schedule(next, affected)
	return nil
}

// errUnchanged says a modification leaves the snapshot as it was: no new
// snapshot, nothing to validate again.
var errUnchanged = errors.New("fsrb: nothing changed")

// modifiers holds the function of each kind of modification.
var modifiers = map[modKind]func(*step, modification) error{
	modOpen:     (*step).open,
	modChange:   (*step).change,
	modClose:    (*step).close,
	modFiles:    (*step).files,
	modSave:     (*step).save,
	modOwnEdit:  (*step).ownEdit,
	modSettings: (*step).reconfigure,
	modSkip:     (*step).skip,
}

// step is one modification under way: the snapshot it starts from, the one
// it makes, and what it touched. The server's lock is held throughout.
type step struct {
	old, next *snapshot
	deps      map[uri.URI]map[string]bool // the server's: which files each patch named
	log       *zap.Logger
	changed   []string         // keys of files whose content changed
	affected  map[uri.URI]bool // documents to validate again
}

// advance applies m to the current snapshot and installs the result.
func (s *Server) advance(m modification) (*snapshot, map[uri.URI]bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := &step{old: s.snap, next: s.snap.clone(), deps: s.deps, log: s.log, affected: map[uri.URI]bool{}}
	if m.kind != modChange && t.next.view != nil {
		// Any other event may come with a change on disk (a save, a
		// watcher's report, a file closed): no stat or walk begun before
		// it stands for the disk after it (diskreads.go).
		t.next.view.cache.unconfirm()
	}
	if err := modifiers[m.kind](t, m); err != nil {
		return nil, nil, err
	}
	for _, k := range t.changed {
		if k == "" {
			continue
		}
		for u, d := range t.next.docs {
			deps, known := t.deps[u]
			if d.served() && (!known || dependsOn(deps, k)) {
				t.affected[u] = true
			}
		}
	}
	s.snap = t.next
	return t.next, t.affected, nil
}

func (t *step) open(m modification) error {
	next := t.next
	d := &document{uri: m.uri, key: next.view.key(m.uri), lang: m.lang, version: m.version, text: m.text, mapper: newMapper(m.text)}
	if w, ok := next.written[d.key]; ok {
		if !w.deleted && strings.TrimPrefix(w.text, bom) == d.text {
			delete(next.written, d.key) // the editor shows the edit: its buffer is the truth
		}
	}
	next.put(d)
	delete(next.skips, m.uri)
	if disk, ok := m.disk[d.key]; ok && d.key != "" {
		next.synced[d.key] = opened(d.text, disk)
	}
	t.changed = append(t.changed, d.key)
	t.affected[m.uri] = true
	return nil
}

func (t *step) change(m modification) error {
	d, ok := t.old.docs[m.uri]
	if !ok {
		return fmt.Errorf("fsrb: change to %s, which is not open", m.uri)
	}
	if m.version <= d.version {
		t.log.Info("stale change ignored", zap.String("uri", string(m.uri)), zap.Int32("version", m.version), zap.Int32("have", d.version))
		return errUnchanged
	}
	nd := *d
	var edits []textEdit
	var err error
	if nd.mapper, edits, err = applyChanges(d.mapper, m.changes); err != nil {
		// A notification has no answer: the change is logged (by the
		// transport) and dropped, whole, and the document keeps its
		// last good text and version (position.go).
		return fmt.Errorf("fsrb: change to %s version %d ignored: %w", m.uri, m.version, err)
	}
	nd.text, nd.version = nd.mapper.Text(), m.version
	if marks := t.old.skips[m.uri]; len(marks) > 0 {
		t.next.skips[m.uri] = moveSkips(marks, edits)
	}
	t.next.put(&nd)
	t.next.anchorSkips(m.uri, nd.text)
	if b, ok := t.next.synced[d.key]; ok {
		t.next.synced[d.key] = b.edited(nd.text)
	}
	delete(t.next.written, d.key) // the editor reported its text after our edit
	t.changed = append(t.changed, d.key)
	t.affected[m.uri] = true
	return nil
}

func (t *step) close(m modification) error {
	d, ok := t.old.docs[m.uri]
	if !ok {
		return nil
	}
	next := t.next
	delete(next.docs, m.uri)
	delete(next.skips, m.uri)
	if next.overlay[d.key] == d {
		delete(next.overlay, d.key)
		delete(next.written, d.key) // saved or discarded: the disk says which
		delete(next.synced, d.key)
	}
	t.changed = append(t.changed, d.key)
	t.affected[m.uri] = true // the diagnoser clears what it published
	delete(t.deps, m.uri)
	next.prior.forget(m.uri)
	next.seen.forget(m.uri)
	return nil
}

func (t *step) files(m modification) error {
	next := t.next
	for _, u := range m.files {
		if k := next.view.key(u); k != "" {
			t.changed = append(t.changed, k)
		}
	}
	t.changed = append(t.changed, m.keys...)
	for _, k := range t.changed {
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
			t.changed = append(t.changed, k)
		}
	}
	return nil
}

func (t *step) save(m modification) error {
	if d, ok := t.old.docs[m.uri]; ok && d.key != "" {
		if disk, ok := m.disk[d.key]; ok {
			t.next.synced[d.key] = saved(d.text, disk)
			t.changed = append(t.changed, d.key)
		}
	}
	return nil
}

func (t *step) ownEdit(m modification) error {
	for k, w := range m.own {
		if d, open := t.next.overlay[k]; open && d.version != w.docVersion {
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
		t.next.written[k] = w
		t.changed = append(t.changed, k)
	}
	return nil
}

func (t *step) skip(m modification) error {
	t.next.applySkip(m.uri, m.skip)
	t.affected[m.uri] = true
	return nil
}

func (t *step) reconfigure(m modification) error {
	t.next.settings = m.settings
	for u := range t.next.docs {
		t.affected[u] = true
	}
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

// applyChanges applies LSP content changes in order to the text m
// indexes: each range is in UTF-16 positions of the text as the changes
// before it left it. A change without a range replaces the whole text. A
// range outside the text (position.go) fails them all. It returns the
// new text's mapper and each change as bytes (for the skip marks to
// follow, skip.go).
func applyChanges(m *mapper, changes []protocol.TextDocumentContentChangeEvent) (*mapper, []textEdit, error) {
	edits := make([]textEdit, 0, len(changes))
	for i, c := range changes {
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			m = newMapper(c.Text)
			edits = append(edits, textEdit{whole: true})
		case *protocol.TextDocumentContentChangePartial:
			sp, err := spanOf(m, c.Range)
			if err != nil {
				return nil, nil, fmt.Errorf("change %d of %d: %w", i+1, len(changes), err)
			}
			m = m.splice(sp, c.Text)
			edits = append(edits, textEdit{span: sp, n: len(c.Text)})
		}
	}
	return m, edits, nil
}

// textEdit is one content change as applied: the bytes it replaced, in
// the text as the changes before it left it, and the length of what it
// put there; or the whole text replaced.
type textEdit struct {
	span  core.Span
	n     int
	whole bool
}

// recordDeps remembers which files a patch's latest analysis named.
func (s *Server) recordDeps(u uri.URI, a *analysis) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, open := s.snap.docs[u]; open {
		s.deps[u] = a.deps
	}
}
