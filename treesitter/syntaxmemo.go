package treesitter

import "github.com/fsrb/fsrb/core"

// A language server validates a patch again on every change to it, and a
// change to one block leaves every other file's change as it was: the
// same content, handed on by core.Revalidate (FileChange.SameContent).
// The syntax check of such a file would find what it found the last time,
// after building its new content and hashing it to find its tree again:
// for a chat answer streaming in, one chunk after another, over every
// file the answer names (W8 of make bench). A whole-file session (the
// language server's) keeps the last change it checked of each path and
// its errors; a one-shot cache (the CLI's) keeps nothing.

// checkedChange is a change whose syntax was checked, and what was
// found. Keeping the change keeps its content alive, so another content
// cannot take its place under the same identity.
type checkedChange struct {
	fc   core.FileChange
	errs []SyntaxError
}

// knownSyntaxErrors returns what the check of fc's content found, when
// it is the content last checked at its path.
func (c *Cache) knownSyntaxErrors(fc *core.FileChange) ([]SyntaxError, bool) {
	if !c.WholeFiles {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	k, ok := c.checked[fc.Path]
	if !ok || !k.fc.SameContent(*fc) {
		return nil, false
	}
	return k.errs, true
}

// rememberSyntaxErrors keeps what the check of fc's content found.
func (c *Cache) rememberSyntaxErrors(fc *core.FileChange, errs []SyntaxError) {
	if !c.WholeFiles {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.checked[fc.Path]; !ok && len(c.checked) >= c.maxFiles {
		clear(c.checked) // a session past maxFiles paths starts afresh
	}
	c.checked[fc.Path] = checkedChange{fc: *fc, errs: errs}
}
