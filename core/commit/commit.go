// Package commit is the one part of fsrb that writes to the workspace. It
// applies a validated plan all-or-nothing: a failure, or a crash found
// later by Recover, leaves every file all old or all new (docs/ARCHITECTURE.md
// "Operations and safety"), and the journal it keeps outside the
// workspace serves Undo.
package commit

import (
	"fmt"

	"github.com/fsrb/fsrb/core"
)

// Result says what a commit did, in real paths relative to the root.
type Result struct {
	Journal     string   // id of the journal; Undo restores it
	Written     []string // existing files given new content
	Created     []string // new files, and existing 0-byte files filled by a create
	Deleted     []string
	CreatedDirs []string // folders made for new files, parents first
	RemovedDirs []string // folders left empty by deletions, deepest first
}

// Commit writes changes to the workspace at root, all or nothing.
//
// Every target must still hold the content the plan was validated against
// (Old, or no file when !Existed); otherwise it returns a *ConflictError
// and writes nothing. A failure while writing rolls everything back and
// returns a *CommitError. Bytes are written exactly as given.
func Commit(root string, changes []core.FileChange, opt Options) (*Result, error) {
	disk, err := NewDisk(root)
	if err != nil {
		return nil, err
	}
	if len(changes) == 0 {
		return &Result{}, nil
	}
	st, err := openStore(disk.Root, opt, true)
	if err != nil {
		return nil, err
	}
	defer st.close()
	js, err := st.journals()
	if err != nil {
		return nil, err
	}
	if len(pending(js)) > 0 {
		return nil, ErrRecoveryNeeded
	}
	// Checked under the lock, so no other fsrb can write in between.
	ops, err := plan(disk, changes)
	if err != nil {
		return nil, err
	}
	created, err := missingDirs(disk, ops, nil)
	if err != nil {
		return nil, err
	}
	t, err := run(disk, st, opt.Stop, kindCommit, "", ops, created, prunable(disk, ops))
	if err != nil {
		return nil, err
	}
	r := t.result()
	return &r, nil
}

// plan turns changes into ops, refusing any target that has moved on since
// validation or that resolves outside the root.
func plan(disk *Disk, changes []core.FileChange) ([]op, error) {
	seen := map[string]string{}
	var ops []op
	for _, c := range changes {
		if c.Action == core.ActionDelete && !c.Existed {
			return nil, fmt.Errorf("%s: a delete of a file that did not exist", c.Path)
		}
		// The plan keys files by real path already; resolving again
		// catches a link swapped in since, and never replaces a link
		// itself with a regular file.
		real, err := disk.RealPath(c.Path)
		if err != nil {
			return nil, err
		}
		if other, dup := seen[real]; dup {
			return nil, fmt.Errorf("%s and %s are the same file (%s); the plan must hold one change per file", other, c.Path, real)
		}
		seen[real] = c.Path
		now, same, err := holds(disk.abs(real), c.Old)
		if err != nil {
			return nil, err
		}
		if c.Existed != now.exists || c.Existed && !same {
			return nil, &ConflictError{Path: c.Path}
		}
		var old []byte
		if c.Existed {
			old = c.Old
			if old == nil {
				old = []byte{}
			}
		}
		o := op{path: real, action: c.Action, existed: c.Existed, old: old, oldMode: now.mode, newMode: now.mode, seen: now.fi, checked: true}
		if c.Action == core.ActionDelete {
			o.remove = true
		} else {
			o.new = c // written from its pieces: the commit never builds it (c.Bytes())
		}
		ops = append(ops, o)
	}
	return ops, nil
}

// prunable lists the folders above deleted files, up to but never
// including the root: the ones a deletion may leave empty.
func prunable(disk *Disk, ops []op) []dirEntry {
	var deleted []string
	for _, o := range ops {
		if o.remove {
			deleted = append(deleted, o.path)
		}
	}
	dirs := map[string]bool{}
	for _, dir := range foldersAbove(deleted) {
		dirs[dir] = true
	}
	return dirsDeepestFirst(disk, dirs)
}
