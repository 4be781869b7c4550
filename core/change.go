package core

import (
	"errors"
	"io"
	"sync"
	"unsafe"
)

// Action is what a commit does to one file.
type Action string

const (
	ActionModify Action = "modify"
	ActionCreate Action = "create"
	// ActionDelete: the blocks left the file empty (docs/ARCHITECTURE.md
	// "Operations and safety").
	ActionDelete Action = "delete"
)

// FileChange is the planned new state of one file: what the commit writes.
// Old is the exact content that was validated; the commit refuses to write
// when the file on disk no longer holds it.
type FileChange struct {
	Path    string // real path, slash-separated, relative to the root
	Display string // the path as the patch first wrote it
	Action  Action
	Existed bool   // the file existed at validation (an existing 0-byte file may be "created")
	Old     []byte // the validated content; nil when the file did not exist
	// content is what Bytes returns: the new content, built at the first
	// call from the pieces validation left, so that validating one block
	// in a big file does not build the whole file (BenchmarkW2).
	content *fileContent
	Blocks  []int // the numbers of the blocks applied to this file, in order
	// MovedFrom is the file (as the patch wrote it) whose content this one
	// took by an apply-patch "*** Move to:"; "" otherwise. The source is a
	// FileChange of its own, a delete unless later blocks recreated it.
	MovedFrom string
	// Lines says where each block's new text ended up in Bytes(), so that what
	// is found in the new content (a syntax error) can be laid at the door
	// of the block that wrote it.
	Lines []BlockLines
}

// fileContent is a FileChange's new content: bytes, or the doc to build
// them from, once. d is never changed after the content is made (Head
// reads it without the once).
type fileContent struct {
	once sync.Once
	d    *doc
	b    []byte
}

// Bytes returns the content to write; nil for ActionDelete. Validate's
// changes build it at the first call (one copy of the file, from the
// untouched spans of the old content and the blocks' texts) and keep it;
// a plan whose bytes nobody asks for never builds them. Safe for
// concurrent use. Read-only: it may share memory with strings.
func (fc FileChange) Bytes() []byte {
	c := fc.content
	if c == nil {
		return nil
	}
	c.once.Do(func() {
		if c.d != nil {
			c.b = c.d.bytes()
		}
	})
	return c.b
}

// SameContent reports whether fc and other hold one content: the change
// Revalidate hands on for a file it took over from the plan before.
// Whatever was found in one's content holds for the other's.
func (fc FileChange) SameContent(other FileChange) bool {
	return fc.content != nil && fc.content == other.content
}

// Head returns the first min(n, len(Bytes())) bytes of the new content:
// exactly Bytes()[:n], without building the content when it has not been
// built: asking a big file's first line for a "#!" must not copy the
// file, CRLF or BOM included (make bench, W6). Safe for concurrent use;
// read-only.
func (fc FileChange) Head(n int) []byte {
	c := fc.content
	if c == nil {
		return nil
	}
	if c.d == nil {
		b := fc.Bytes()
		return b[:min(n, len(b))]
	}
	if c.d.bom || c.d.crlf != nil {
		// Streamed, and stopped once n bytes are in: what is written
		// before the end is always a prefix of Bytes() (writeTo holds the
		// last bytes back for the final trim).
		h := &headWriter{n: max(n, 0)}
		if h.n > 0 {
			_, _ = c.d.writeTo(h)
		}
		return h.b
	}
	return c.d.head(n)
}

// headWriter keeps the first n bytes written to it, then stops the writer.
type headWriter struct {
	b []byte
	n int
}

var errHeadFull = errors.New("head full")

func (h *headWriter) Write(p []byte) (int, error) {
	k := min(len(p), h.n-len(h.b))
	h.b = append(h.b, p[:k]...)
	if len(h.b) == h.n {
		return k, errHeadFull
	}
	return k, nil
}

// WriteTo writes the new content to w: exactly the bytes Bytes returns,
// without building them when they have not been built: a commit streams a
// big file's pieces into its temporary file instead of holding a second
// copy (make bench, W6). The untouched spans go to w straight from the
// old content's memory, so w must not modify or keep what it is given
// (io.Writer's contract). Nothing is written for ActionDelete. Safe for
// concurrent use, with Bytes and Head too.
func (fc FileChange) WriteTo(w io.Writer) (int64, error) {
	c := fc.content
	if c == nil {
		return 0, nil
	}
	if c.d == nil {
		if len(c.b) == 0 {
			return 0, nil
		}
		n, err := w.Write(c.b)
		return int64(n), err
	}
	return c.d.writeTo(w)
}

// WithBytes returns fc with b as its new content (what Bytes returns), for
// changes made by hand.
func (fc FileChange) WithBytes(b []byte) FileChange {
	fc.content = &fileContent{b: b}
	return fc
}

// BlockLines is where one block's new text sits in the new content: lines
// Line to EndLine, 1-based and inclusive (EndLine = Line-1 when the block
// only removed lines). A block whose text a later block replaced whole is
// left out.
type BlockLines struct {
	Block, Line, EndLine int
}

// NewLines returns lines [from, to) of the new content (0-based, clamped to
// its lines; a line ends after its "\n", and a last line without one
// counts), and the offset in Bytes() where they start: exactly the bytes
// of Bytes() from the start of line from to the start of line to, BOM,
// CRLF and missing final newline included, built from the lines asked for
// when the content has not been built: the syntax check of one block in
// a big file reads the lines around it, not the whole file (make bench,
// W2). Safe for concurrent use; read-only (it may share memory with
// strings).
func (fc FileChange) NewLines(from, to int) ([]byte, int) {
	c := fc.content
	if c == nil {
		return nil, 0
	}
	if c.d == nil {
		return bytesLines(fc.Bytes(), from, to)
	}
	return c.d.newLines(from, to)
}

// NewLen returns len(Bytes()) without building the content.
func (fc FileChange) NewLen() int {
	c := fc.content
	if c == nil {
		return 0
	}
	if c.d == nil {
		return len(fc.Bytes())
	}
	return c.d.bytesLen()
}

// bytesLines is NewLines on built bytes.
func bytesLines(b []byte, from, to int) ([]byte, int) {
	from, to = max(0, from), max(0, to)
	start := lineAfter(unsafe.String(unsafe.SliceData(b), len(b)), 0, from)
	if to <= from {
		return b[start:start], start
	}
	return b[start:lineAfter(unsafe.String(unsafe.SliceData(b), len(b)), start, to-from)], start
}
