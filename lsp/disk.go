package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/lsp/internal/rpc"
)

// The server must never build an edit from a stale view of the files
// (lsp/README.md, "A patch's life"). Three things keep its view current
// where the editor does not report changes: clients sync only the documents
// they attach the server to, and on Linux most send no file-watch events.
//
//   - stamps: every file a snapshot read from disk is remembered with its
//     size and modification time; checkDisk compares them with the disk
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

// stamp is what the disk said of a file when a snapshot read it.
type stamp struct {
	missing bool
	size    int64
	mtime   int64 // nanoseconds
}

func statFile(full string) stamp {
	fi, err := os.Stat(full)
	if err != nil {
		return stamp{missing: true}
	}
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

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

// readDisk reads a file from disk and stamps it.
func (s *snapshot) readDisk(name string) ([]byte, error) {
	now := time.Now().UnixNano()
	if data, st, ok := s.reads.recent(name, now); ok && s.stampUnchecked(name, st) {
		return data, nil
	}
	st := statFile(filepath.Join(s.view.root, filepath.FromSlash(name)))
	data, err := s.reads.read(name, st, now, func() ([]byte, error) { return s.view.disk.ReadFile(name) })
	if err == nil && !st.missing && int64(len(data)) != st.size {
		// The file changed between the stat and the read (a writer that
		// truncates, then writes): what was read may be neither version.
		// A stamp no file has makes the next disk check read it again;
		// the stat's, if the write kept its size and clock tick, would
		// keep the torn read for good.
		st = stamp{size: -1}
	}
	recordFirst(s, s.stamps, name, st)
	if err == nil && !st.missing && st.mtime >= now-int64(racy) {
		recordFirst(s, s.young, name, data)
	}
	return data, err
}

// recordFirst records what this snapshot's first read of name found in
// m, one of its maps (stamps, young).
func recordFirst[V any](s *snapshot, m map[string]V, name string, v V) {
	s.mu.Lock()
	defer s.mu.Unlock()
	putFirst(m, name, v)
}

func putFirst[V any](m map[string]V, name string, v V) {
	if _, seen := m[name]; !seen {
		m[name] = v
	}
}

// stampUnchecked is stamp for a read that trusts an earlier stat, which
// only a snapshot no disk check has looked at yet may do: under the same
// lock as the check's copy of the stamps, so that every such read is
// either among the stamps the check compares with the disk, or comes
// after it and stats the disk itself.
func (s *snapshot) stampUnchecked(name string, st stamp) bool {
	return recordUnchecked(s, s.stamps, name, st)
}

// walkUnchecked is stampUnchecked for a path resolved by an earlier walk.
func (s *snapshot) walkUnchecked(name string, r resolved) bool {
	return recordUnchecked(s, s.walks, name, r)
}

// recordUnchecked is recordFirst for a trusted read, unless a disk check
// has looked at s.
func recordUnchecked[V any](s *snapshot, m map[string]V, name string, v V) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.checked {
		return false
	}
	putFirst(m, name, v)
	return true
}

// staleOnDisk lists the files this snapshot knows from disk (directly, or
// through an own edit) that changed on disk since.
func (s *snapshot) staleOnDisk() []string {
	if s.view == nil {
		return nil
	}
	s.mu.Lock()
	s.checked = true
	seen, young, walks := maps.Clone(s.stamps), maps.Clone(s.young), maps.Clone(s.walks)
	s.mu.Unlock()
	for k, w := range s.written {
		seen[k] = w.disk
	}
	var out []string
	for k, st := range seen {
		if _, open := s.overlay[k]; open {
			if _, own := s.written[k]; !own {
				continue // the editor's buffer, not the disk, is the truth
			}
		}
		if statFile(filepath.Join(s.view.root, filepath.FromSlash(k))) != st {
			out = append(out, k)
			continue
		}
		// The same stamp: a file written twice within one tick of the
		// file system's clock, at the same size, keeps it. Such a file
		// was read within that time of its last change, and its content
		// tells.
		if data, ok := young[k]; ok {
			if now, err := s.view.disk.ReadFile(k); err != nil || !bytes.Equal(now, data) {
				out = append(out, k)
			}
		}
	}
	// A path resolved by an earlier walk that now leads elsewhere (a link
	// changed): the files at both ends.
	for name, r := range walks {
		if real, err := s.view.disk.RealPath(name); real != r.real || (err == nil) != (r.err == nil) {
			for _, k := range []string{r.real, real} {
				if k != "" {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// checkDisk re-validates what depends on files changed on disk since the
// current snapshot read them, and returns the snapshot to use.
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

// An "Apply" code action carries its edit, which the client applies itself:
// the server hears of it only through the action's command, which LSP
// clients run after the edit applied (VS Code, Neovim). onApplied keeps the
// plan and the snapshot the edit was built from, under a fresh id, for
// CommandApplied to record. What the edit leaves is worked out only then:
// clients ask for code actions on every cursor move, and most are never
// run.

// keptActions bounds the code actions' results kept for CommandApplied:
// a client runs one of the last menus it showed.
const keptActions = 8

func (s *Server) onApplied(snap *snapshot, plan *core.Plan, applyAll bool) protocol.Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.actionSeq++
	id := fmt.Sprintf("fsrb-edit-%d", s.actionSeq)
	s.actionEdits[id] = &actionEdit{snap: snap, plan: plan, applyAll: applyAll}
	s.actionOrder = append(s.actionOrder, id)
	if len(s.actionOrder) > keptActions {
		delete(s.actionEdits, s.actionOrder[0])
		s.actionOrder = s.actionOrder[1:]
	}
	return protocol.Command{Title: "fsrb: record the applied edit", Command: CommandApplied, Arguments: args(id)}
}

// actionEdit is a code action's edit, kept until the client says it
// applied it.
type actionEdit struct {
	snap     *snapshot  // the view the edit was built from
	plan     *core.Plan // what it applies
	applyAll bool       // "Apply all blocks": the files to show (showChanged)
}

// applied records the edit of the code action id as applied, and after
// "Apply all blocks" opens the files it changed when the user asked for it.
func (s *Server) applied(ctx context.Context, id string) {
	s.mu.Lock()
	act, ok := s.actionEdits[id]
	delete(s.actionEdits, id)
	s.mu.Unlock()
	if !ok {
		return
	}
	s.recordOwnEdits(act.snap.ownEdits(act.plan))
	if act.applyAll {
		snap := s.snapshot()
		rpc.Release(ctx) // showDocument waits on the client
		s.showChanged(ctx, snap, act.plan)
	}
}
