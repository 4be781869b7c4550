package lsp

import (
	"io/fs"

	"go.uber.org/zap"
)

// The server must never build an edit from a stale view of the files
// (lsp/README.md, "A patch's life"). Three things keep its view current
// where the editor does not report changes: clients sync only the documents
// they attach the server to, and on Linux most send no file-watch events.
//
//   - stamps: every file a snapshot read from disk is remembered with its
//     size and modification time, and every path with what its links led
//     to (diskreads.go); checkDisk compares them with the disk
//     before any Apply or Revert edit is built, on every didSave and on the
//     requests that show a patch's state (code lenses, code actions), and
//     re-validates the patches whose files changed.
//   - own edits: once the client answers workspace/applyEdit with
//     applied: true, the new content of every file of that edit is the
//     server's view of it, whether the client syncs the file or not, until
//     the editor or the disk says otherwise.
//   - versions: an edit of a file the editor has open carries the version
//     it was computed for, so a client refuses it on newer text.
//   - open documents: each is compared with its file on disk, by the same
//     stamps, and a buffer left behind by a change on disk is stale or in
//     conflict (stale.go).

// ownEdit is a file as the server's last applied edit left it in the
// editor.
type ownEdit struct {
	text    string // the new content, as the commit would write it
	deleted bool
	// docVersion is the version of the editor's document the edit was
	// computed for (-1: not open). While the document still has that
	// version, the client has not yet reported the edit (Neovim reports
	// changes after a debounce) and the edit's result is the truth.
	docVersion int32
	// before is the text the edit was computed on, kept only until the
	// edit is recorded.
	before string
	// disk is the file on disk when the edit was applied: once the disk
	// differs (the user saved, or a tool wrote it), the disk is the truth.
	disk stamp
}

func (w *ownEdit) read(name string) ([]byte, error) {
	if w.deleted {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return []byte(w.text), nil
}

// pendingOwnEdit reports whether the server's view of key comes from its
// own applied edit while the editor's open document still shows the text
// before it: an edit computed now would land on other text than it was
// computed for.
func (s *snapshot) pendingOwnEdit(key string) bool {
	d, open := s.overlay[key]
	w, ok := s.written[key]
	return open && ok && w.docVersion == d.version
}

// staleOnDisk lists the files this snapshot knows from disk (directly, or
// through an own edit) that changed on disk since, and marks it checked
// (diskreads.go).
func (s *snapshot) staleOnDisk() []string {
	if s.view == nil {
		return nil
	}
	out := s.reads.check(s.view)
	for k, w := range s.written {
		if s.view.stat(k) != w.disk {
			out = append(out, k)
		}
	}
	return out
}

// checkDisk re-validates what depends on files changed on disk since the
// current snapshot read them, and returns the snapshot to use: the one it
// compared, whose later reads take nothing on trust, or, when it found a
// change, one made after the comparison, whose modification ended the trust
// in every stat and walk begun before it (diskreads.go).
func (s *Server) checkDisk() *snapshot {
	snap := s.snapshot()
	stale, open := snap.staleOnDisk(), snap.openOnDisk()
	if len(stale) == 0 && len(open) == 0 {
		return snap
	}
	m := modification{kind: modFiles, keys: stale, disk: map[string]onDisk{}}
	for _, k := range open {
		m.disk[k] = snap.view.readOnDisk(k)
	}
	if err := s.modify(m); err != nil {
		s.log.Info("disk check", zap.Error(err))
	}
	return s.snapshot()
}
