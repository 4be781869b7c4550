package lsp

import (
	"strings"
	"sync"

	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/core"
)

// A CopilotChat block (```python path=src/x.py start_line=4 end_line=6)
// replaces lines 4-6 of its file as the model saw it. In the editor that
// is the file's text when the block arrived in the answer
// (docs/formats.md): the server keeps, per patch document and file, the
// file's text the first time a line-range block of it was read there,
// and reads each such block as the SEARCH/REPLACE block it stands for on
// that text — those lines as SEARCH, its code as REPLACE, the range as
// the hint that picks among several places. So the second range of an
// answer lands where the model meant it once the first is applied, an
// applied range is recognised as applied (its lines gone, its code in
// their place) and never written twice, and Revert gives the lines back.
// The command line and MCP have no such memory: they read the range on
// the file as it is (core).

// seenFiles holds, per patch document, the text of each file its
// line-range blocks name, as it was when the first of them arrived.
type seenFiles struct {
	mu   sync.Mutex
	docs map[uri.URI]map[string]string
}

func newSeenFiles() *seenFiles {
	return &seenFiles{docs: map[uri.URI]map[string]string{}}
}

// text returns the text of file key as document u first saw it, reading
// it now (and keeping it) the first time. ok is false when the file
// cannot be read.
func (f *seenFiles) text(u uri.URI, key string, read func() ([]byte, error)) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if t, ok := f.docs[u][key]; ok {
		return t, true
	}
	data, err := read()
	if err != nil {
		return "", false
	}
	if f.docs[u] == nil {
		f.docs[u] = map[string]string{}
	}
	t := string(data)
	f.docs[u][key] = t
	return t, true
}

// keep drops the files of u that no line-range block of it names any
// more: a new answer in the same buffer starts from the files as they are.
func (f *seenFiles) keep(u uri.URI, keys map[string]bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k := range f.docs[u] {
		if !keys[k] {
			delete(f.docs[u], k)
		}
	}
	if len(f.docs[u]) == 0 {
		delete(f.docs, u)
	}
}

// forget drops a closed document's files.
func (f *seenFiles) forget(u uri.URI) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.docs, u)
}

// rangesAsSeen turns each line-range block of the patch in document u
// into the SEARCH/REPLACE block it stands for on its file as the document
// first saw it (see above). A block whose range that text does not hold
// is left as it is, for core to refuse.
func (s *snapshot) rangesAsSeen(u uri.URI, patch *core.Patch) {
	if s.seen == nil || s.view == nil {
		return
	}
	keys := map[string]bool{}
	for i := range patch.Blocks {
		b := &patch.Blocks[i]
		if b.Op != core.OpSnippet || b.FromLine <= 0 {
			continue
		}
		key, err := core.CleanPath(s.view.slashRoot, b.Path)
		if err != nil {
			continue
		}
		keys[key] = true
		// Read as soon as the block shows, while it still streams in:
		// that is when the model had the file.
		text, ok := s.seen.text(u, key, func() ([]byte, error) { return s.ReadFile(key) })
		if !ok || b.Incomplete || b.ToLine < b.FromLine {
			continue
		}
		lines := strings.SplitAfter(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if b.ToLine > len(lines) {
			continue
		}
		b.Op = core.OpModify
		b.Search = strings.Join(lines[b.FromLine-1:b.ToLine], "")
		if b.Replace != "" && !strings.HasSuffix(b.Replace, "\n") {
			b.Replace += "\n"
		}
		b.HintLine, b.HintEndLine = b.FromLine, b.ToLine
	}
	s.seen.keep(u, keys)
}
