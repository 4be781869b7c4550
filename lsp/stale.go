package lsp

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/fsrb/fsrb/core"
)

// An open document is the truth while the editor holds unsaved changes in
// it. One whose file changed on disk is not, unless it holds such changes
// too (lsp/README.md, "Never a stale view"). The server cannot ask an
// editor whether a buffer is modified, so it keeps, per open document, the
// text the document had when it last agreed with the disk (didOpen showing
// the file, didSave, a change to the disk's text) and what the disk held
// then. When the disk's text changes after that:
//
//   - the document still holds the agreed text: the buffer is stale. The
//     disk is the truth (the patch reads as applied or not by what the disk
//     holds), and no edit of the file is built until the editor reloads it;
//   - it holds other text: a conflict. Every block of the file gets an
//     error (code disk-conflict), so nothing is applied, until the user
//     saves the buffer over the disk or reloads it.
//
// A document opened with text other than the disk's never agreed with it:
// any later change on disk is a conflict.

// kindDiskConflict is the code of the error on the blocks of a file that
// changed on disk while its buffer holds unsaved changes.
const kindDiskConflict core.Kind = "disk-conflict"

// onDisk is a file as the disk held it when the server read it.
type onDisk struct {
	stamp stamp
	data  string // the bytes, BOM included; "" when missing
}

// readOnDisk reads key from disk (diskreads.go): a write between its stat
// and its read shows as a change at the next stat.
func (v *view) readOnDisk(key string) onDisk {
	if v == nil || key == "" {
		return onDisk{stamp: stamp{missing: true}}
	}
	r := v.load(key)
	if r.st.missing || r.err != nil {
		return onDisk{stamp: stamp{missing: true}}
	}
	return onDisk{stamp: r.st, data: string(r.data)}
}

// text is the file's text as an editor shows it.
func (o onDisk) text() string { return strings.TrimPrefix(o.data, bom) }

// bufferSync is what the server knows of an open document and its file on
// disk; immutable, a change makes a new one.
type bufferSync struct {
	disk   onDisk // the disk when last read
	agreed string // the document's text when it last agreed with the disk
	clean  bool   // it did agree once (false: opened with unsaved changes)
	moved  bool   // the disk's text changed since they last agreed
}

// opened is the state of a document just opened with text.
func opened(text string, disk onDisk) *bufferSync {
	if text == disk.text() {
		return &bufferSync{disk: disk.sharing(text), agreed: text, clean: true}
	}
	return &bufferSync{disk: disk}
}

// sharing returns o holding text's bytes when they are the same: an open
// file is then kept in memory once.
func (o onDisk) sharing(text string) onDisk {
	if o.data == text {
		o.data = text
	}
	return o
}

// saved: the editor wrote text to disk, which holds disk now.
func saved(text string, disk onDisk) *bufferSync {
	return &bufferSync{disk: disk.sharing(text), agreed: text, clean: true}
}

// edited is the state after the document changed to text: back in step
// with the disk when it now shows what the disk holds (an editor's reload
// reported as a change, a save reported before its last change).
func (b *bufferSync) edited(text string) *bufferSync {
	if (b.moved || !b.clean || text != b.agreed) && text == b.disk.text() {
		return &bufferSync{disk: b.disk, agreed: text, clean: true}
	}
	return b
}

// reread is the state after the disk was read again while the document
// holds text; nil when nothing the server cares about changed.
func (b *bufferSync) reread(text string, disk onDisk) *bufferSync {
	switch {
	case disk.stamp == b.disk.stamp:
		return nil
	case disk.data == b.disk.data:
		nb := *b // touched, not changed
		nb.disk = disk
		return &nb
	case text == disk.text():
		return &bufferSync{disk: disk.sharing(text), agreed: text, clean: true}
	}
	return &bufferSync{disk: disk, agreed: b.agreed, clean: b.clean, moved: true}
}

type bufferState int

const (
	bufferSynced   bufferState = iota // the buffer is the truth
	bufferStale                       // unmodified, its file changed on disk: the disk is the truth
	bufferConflict                    // modified, and its file changed on disk
)

// bufferState tells how the open document of key stands to the disk.
func (s *snapshot) bufferState(key string) bufferState {
	b, ok := s.synced[key]
	d, open := s.overlay[key]
	if !ok || !open || !b.moved {
		return bufferSynced
	}
	if b.clean && d.text == b.agreed {
		return bufferStale
	}
	return bufferConflict
}

// readStale returns what the disk holds for a stale buffer's file.
func (s *snapshot) readStale(name string) ([]byte, error) {
	b := s.synced[name]
	if b.disk.stamp.missing {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return []byte(b.disk.data), nil
}

// openOnDisk lists the open documents whose file's stamp changed since the
// server last read it.
func (s *snapshot) openOnDisk() []string {
	if s.view == nil {
		return nil
	}
	var out []string
	for k, b := range s.synced {
		if s.view.stat(k) != b.disk.stamp {
			out = append(out, k)
		}
	}
	return out
}

// conflicts adds an error to every block whose file is in conflict, and
// takes such blocks out of the plan: nothing of the patch applies, and
// none of them reads as applied, until the user settles it.
func (s *snapshot) conflicts(a *analysis) {
	failed := map[int]bool{}
	// A file's blocks mostly come one after another: its state is looked
	// up once a run.
	lastKey, conflict := "", false
	for i := range a.patch.Blocks {
		if i >= len(a.plan.Blocks) {
			break
		}
		b := &a.patch.Blocks[i]
		key := a.plan.Blocks[i].Path
		if key == "" {
			if clean, err := core.CleanPath(s.view.slashRoot, b.Path); err == nil {
				key = clean
			}
		}
		if i == 0 || key != lastKey {
			lastKey, conflict = key, key != "" && s.bufferState(key) == bufferConflict
		}
		if !conflict {
			continue
		}
		sp := b.PathSpan
		if sp.Empty() {
			sp = markerSpan(a.doc.mapper, &a.patch.Blocks[i])
		}
		if len(failed) == 0 {
			// The plan is also the next analysis's to take files over
			// from (core.Revalidate): a conflict is this snapshot's, so
			// it goes on a copy.
			p := *a.plan
			p.Blocks, p.Problems = slices.Clone(p.Blocks), slices.Clone(p.Problems)
			a.plan = &p
		}
		a.plan.Blocks[i].Status = core.StatusFailed
		failed[b.Number] = true
		a.plan.Problems = append(a.plan.Problems, core.Problem{
			Kind:     kindDiskConflict,
			Severity: core.SeverityError,
			Block:    b.Number,
			Path:     b.Path,
			Span:     sp,
			Message:  fmt.Sprintf("%s changed on disk while its buffer has unsaved changes", b.Path),
			Hint:     "save the buffer to keep its text, or reload it to take the disk's; nothing is applied until then",
		})
	}
	if len(failed) == 0 {
		return
	}
	// The note that such a block stands applied speaks of text that is
	// itself in question.
	kept := a.plan.Problems[:0]
	for _, p := range a.plan.Problems {
		if !(failed[p.Block] && p.Kind == core.KindAlreadyApplied && p.Severity != core.SeverityError) {
			kept = append(kept, p)
		}
	}
	a.plan.Problems = kept
}

// staleEdit says why no edit of key can be built now, or "".
func (s *snapshot) staleEdit(key, display string) string {
	switch s.bufferState(key) {
	case bufferStale:
		return fmt.Sprintf("fsrb: %s changed on disk and the editor has not reloaded it yet; nothing was changed: reload it, or try again in a moment", display)
	case bufferConflict:
		return fmt.Sprintf("fsrb: %s changed on disk while its buffer has unsaved changes; nothing was changed: save it or reload it first", display)
	}
	return ""
}
