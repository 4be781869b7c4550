package lsp

import (
	"errors"
	"io/fs"
	"path/filepath"
	"sync"

	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/treesitter"
)

// view is the workspace a session serves: one root, read through the disk.
type view struct {
	root      string // absolute, links resolved (commit.Disk.Root)
	slashRoot string
	disk      *commit.Disk
	cache     *readCache // what the session read of the disk (diskreads.go)
}

func newView(root string) (*view, error) {
	disk, err := commit.NewDisk(root)
	if err != nil {
		return nil, err
	}
	return &view{root: disk.Root, slashRoot: filepath.ToSlash(disk.Root), disk: disk, cache: newReadCache()}, nil
}

// key is the real path, relative to the root, of the file a URI names; ""
// for a document outside the workspace (or not a file).
func (v *view) key(u uri.URI) string {
	if v == nil {
		return ""
	}
	name, ok := filename(u)
	if !ok {
		return ""
	}
	rel, err := filepath.Rel(v.root, name)
	if err != nil || !filepath.IsLocal(rel) {
		// The editor may name the file through a link to the root (/tmp on
		// macOS); the root itself has its links resolved.
		dir, err := filepath.EvalSymlinks(filepath.Dir(name))
		if err != nil {
			return ""
		}
		rel, err = filepath.Rel(v.root, filepath.Join(dir, filepath.Base(name)))
		if err != nil || !filepath.IsLocal(rel) {
			return ""
		}
	}
	slash := filepath.ToSlash(rel)
	if real, err := v.disk.RealPath(slash); err == nil {
		return real
	}
	return slash
}

// uri is the URI of a path relative to the root.
func (v *view) uri(key string) uri.URI {
	return fileURI(filepath.Join(v.root, filepath.FromSlash(key)))
}

// document is an open editor buffer, immutable: a change makes a new one.
type document struct {
	uri     uri.URI
	key     string // see view.key
	lang    string
	version int32
	text    string
	mapper  *mapper
}

func (d *document) isPatch() bool {
	return d.lang == "fsrb" || hasExt(d.uri, ".fsrb")
}

// isMarkdown: a chat answer saved as Markdown is a patch when it holds blocks.
func (d *document) isMarkdown() bool {
	return d.lang == "markdown" || hasExt(d.uri, ".md", ".markdown")
}

// isDiff: a *.patch or *.diff file (language id "diff") is a patch when its
// content is one of the formats core reads — apply-patch, a unified diff,
// SEARCH/REPLACE blocks in any dialect (lsp/README.md); otherwise, like
// Markdown prose, it gets no "no blocks" error.
func (d *document) isDiff() bool {
	return d.lang == "diff" || hasExt(d.uri, ".patch", ".diff")
}

// served reports whether the server analyzes the document at all.
func (d *document) served() bool {
	return d.isPatch() || d.isMarkdown() || d.isDiff()
}

// snapshot is the immutable state of the workspace at one moment: the open
// buffers over the disk. It implements core.FS, so the engine reads a
// buffer's unsaved text where the editor has one and the disk elsewhere —
// the same core as the CLI, another source.
type snapshot struct {
	seq      uint64 // one more than the snapshot it was cloned from
	view     *view
	settings settings
	docs     map[uri.URI]*document
	overlay  map[string]*document // open buffers by key
	// trees is the session's tree-sitter cache, shared by every snapshot:
	// trees are keyed by path and content, so each version of a target file
	// is parsed once, incrementally from the version before.
	trees *treesitter.Cache
	// written holds the files as the server's own applied edits left them
	// (disk.go), by key, until the editor or the disk reports them.
	written map[string]*ownEdit
	// synced holds, per open document by key, how it stands to its file
	// on disk (stale.go).
	synced map[string]*bufferSync
	// prior is the session's last plan of each patch document, and reads
	// its files as the disk last showed them: shared by every snapshot.
	prior *priorPlans
	// reads holds what this snapshot read of the disk (diskreads.go).
	reads *diskReads
	// seen holds the files line-range blocks name as each patch document
	// first saw them (seen.go): shared by every snapshot.
	seen *seenFiles
	// skips holds the blocks skipped in each open patch document (skip.go).
	skips map[uri.URI][]skipMark

	mu       sync.Mutex
	analyses map[uri.URI]*analysisOnce
}

var _ core.FS = (*snapshot)(nil)

func emptySnapshot(trees *treesitter.Cache, prior *priorPlans, seen *seenFiles) *snapshot {
	return &snapshot{
		trees:    trees,
		prior:    prior,
		reads:    newDiskReads(),
		seen:     seen,
		docs:     map[uri.URI]*document{},
		overlay:  map[string]*document{},
		written:  map[string]*ownEdit{},
		synced:   map[string]*bufferSync{},
		skips:    map[uri.URI][]skipMark{},
		analyses: map[uri.URI]*analysisOnce{},
	}
}

// clone copies the maps a modification changes; analyses start afresh.
func (s *snapshot) clone() *snapshot {
	c := emptySnapshot(s.trees, s.prior, s.seen)
	c.seq, c.view, c.settings = s.seq+1, s.view, s.settings
	for k, v := range s.docs {
		c.docs[k] = v
	}
	for k, v := range s.overlay {
		c.overlay[k] = v
	}
	for k, v := range s.written {
		c.written[k] = v
	}
	for k, v := range s.synced {
		c.synced[k] = v
	}
	for k, v := range s.skips {
		c.skips[k] = v
	}
	return c
}

var errNoWorkspace = errors.New("no workspace folder")

// ReadFile implements core.FS: the open buffer first (unless the file
// changed on disk while the buffer was not modified: stale.go), then what
// the server's own applied edits wrote (while the editor has not reported
// them), the disk last.
func (s *snapshot) ReadFile(name string) ([]byte, error) {
	w, own := s.written[name]
	if d, ok := s.overlay[name]; ok {
		if own && w.docVersion == d.version {
			return w.read(name)
		}
		if s.bufferState(name) == bufferStale {
			return s.readStale(name)
		}
		return []byte(d.text), nil
	}
	if own {
		return w.read(name)
	}
	if s.view == nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errNoWorkspace}
	}
	return s.reads.readFile(s.view, name)
}

// RealPath implements core.FS. Links are a property of the disk; an open
// buffer for a file not saved yet resolves through its parent like any
// missing file.
func (s *snapshot) RealPath(name string) (string, error) {
	if s.view == nil {
		return "", &fs.PathError{Op: "resolve", Path: name, Err: errNoWorkspace}
	}
	return s.reads.realPath(s.view, name)
}

// FilesNamed implements core.Namesakes: the disk's files (a buffer not
// saved yet is no guess worth making).
func (s *snapshot) FilesNamed(base string, limit int) []string {
	if s.view == nil {
		return nil
	}
	return s.view.disk.FilesNamed(base, limit)
}

// exists tells the parser whether a bare name such as "Makefile" is a file.
func (s *snapshot) exists(name string) bool {
	if s.view == nil {
		return false
	}
	clean, err := core.CleanPath(s.view.slashRoot, name)
	if err != nil {
		return false
	}
	_, err = s.ReadFile(clean)
	return err == nil
}

// docURI is the URI under which the editor knows a target file: the open
// buffer's own URI when there is one, so that the editor matches it.
func (s *snapshot) docURI(key string) uri.URI {
	if d, ok := s.overlay[key]; ok {
		return d.uri
	}
	return s.view.uri(key)
}
