package commit

import (
	"errors"
	"fmt"
	"strings"
)

var (
	// ErrRecoveryNeeded: a journal of this workspace is still "pending", so
	// its files may be half old, half new. Committing on top would let a
	// later recovery overwrite the new commit with stale backups.
	ErrRecoveryNeeded = errors.New("an earlier fsrb commit in this workspace was interrupted; run fsrb --recover first")
	// ErrNothingToUndo: no committed journal is left for this workspace.
	ErrNothingToUndo = errors.New("nothing to undo: no fsrb commit is recorded for this workspace")
	// ErrInterrupted: Options.Stop was closed before the commit point;
	// the transaction was rolled back.
	ErrInterrupted = errors.New("interrupted")
	// ErrBusy: another fsrb process holds this workspace's journal lock.
	ErrBusy = errors.New("another fsrb is writing in this workspace; try again when it is done")
)

// ConflictError reports a target that no longer holds what was validated:
// the plan was made for other content, so nothing is written.
type ConflictError struct {
	Path string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s changed on disk after validation; nothing was written. Run fsrb again.", e.Path)
}

// UndoConflictError reports the files that no longer hold what the commit
// wrote: undoing would throw away someone's later edit.
type UndoConflictError struct {
	Path  string   // the first of them
	Paths []string // every one, in the commit's order
}

func (e *UndoConflictError) Error() string {
	if len(e.Paths) <= 1 {
		return fmt.Sprintf("%s changed since fsrb wrote it; nothing was undone", e.Path)
	}
	return fmt.Sprintf("%d files changed since fsrb wrote them: %s; nothing was undone", len(e.Paths), strings.Join(e.Paths, ", "))
}

// CommitError reports a step that failed while writing. RolledBack tells
// whether every file was put back; when it is false, the journal stays
// "pending" and Recover finishes the job.
type CommitError struct {
	Op         string // the failed step: "temp-write", "fsync", "rename", "remove", "mkdir", "rmdir", "fsync-dir", "backup" or "journal"
	Path       string // the file or folder it was about, relative to the root
	Err        error
	RolledBack bool
	// RollbackErr is why the rollback did not finish, or nil. Kept lists
	// files the rollback left alone because someone else changed them.
	RollbackErr error
	Kept        []string
}

func (e *CommitError) Unwrap() error { return e.Err }

func (e *CommitError) Error() string {
	what := fmt.Sprintf("could not %s %s: %v", stepVerb(e.Op), e.Path, e.Err)
	switch {
	case errors.Is(e.Err, ErrInterrupted):
		what = "interrupted before the commit point"
	case e.Op == "journal":
		what = fmt.Sprintf("could not write the journal (%s): %v", e.Path, e.Err)
	}
	switch {
	case e.RolledBack:
		return what + "; every file was rolled back, nothing changed"
	case e.RollbackErr != nil:
		return fmt.Sprintf("%s; rolling back failed too (%v): run fsrb --recover", what, e.RollbackErr)
	default:
		return fmt.Sprintf("%s; rolled back, except %v, which changed meanwhile and were left as they are", what, e.Kept)
	}
}

func stepVerb(op string) string {
	switch op {
	case "temp-write":
		return "write a temporary file for"
	case "fsync":
		return "flush to disk the new content of"
	case "rename":
		return "replace"
	case "remove":
		return "delete"
	case "mkdir":
		return "create the folder"
	case "rmdir":
		return "remove the empty folder"
	case "fsync-dir":
		return "flush to disk the folder"
	case "backup":
		return "back up into the journal"
	}
	return op
}

// stepError carries the failed step up to the code that builds CommitError.
type stepError struct {
	op, path string
	err      error
}

func (e *stepError) Error() string { return e.op + ":" + e.path + ": " + e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

// do runs one step, then the failpoint for it.
func do(op, path string, f func() error) error {
	if err := f(); err != nil {
		return &stepError{op, path, err}
	}
	if err := hit(op, path); err != nil {
		return &stepError{op, path, err}
	}
	return nil
}
