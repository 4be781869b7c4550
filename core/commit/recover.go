package commit

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/fsrb/fsrb/core"
)

// RecoverReport says what Recover put back. An empty report (Journal "")
// means no commit was interrupted.
type RecoverReport struct {
	Journal     string   // id of the interrupted transaction
	Restored    []string // files given back their old content
	Removed     []string // files the interrupted commit had created
	RemovedDirs []string // folders it had created
	// Temps are the temporary files (".<name>.fsrb-tmp-…") the
	// interrupted commit had written beside its targets, deleted.
	Temps []string
	// Kept lists files changed by someone after the interruption: they are
	// left as they are, and their old content stays in BackupDir.
	Kept      []string
	BackupDir string
}

// UndoReport says what Undo did: Undone is the journal of the commit it
// reverted; Result describes the undo's own transaction (Written and
// Created are files given back their old content, Deleted the files the
// commit had created).
type UndoReport struct {
	Undone string
	Result
}

// String is the report as the CLI prints it.
func (r *RecoverReport) String() string {
	if r.Journal == "" {
		return "Nothing to recover: no fsrb commit was interrupted in this workspace."
	}
	var b strings.Builder
	for _, p := range r.Restored {
		fmt.Fprintf(&b, "Restored %s\n", p)
	}
	for _, p := range r.Removed {
		fmt.Fprintf(&b, "Removed %s\n", p)
	}
	for _, p := range r.RemovedDirs {
		fmt.Fprintf(&b, "Removed the folder %s/\n", p)
	}
	// One line each would bury the rest: a commit cut off while writing
	// leaves one for each file of the answer.
	switch len(r.Temps) {
	case 0:
	case 1:
		fmt.Fprintf(&b, "Deleted the temporary file %s\n", r.Temps[0])
	default:
		fmt.Fprintf(&b, "Deleted %d temporary files (%s, …)\n", len(r.Temps), r.Temps[0])
	}
	for _, p := range r.Kept {
		fmt.Fprintf(&b, "Kept %s: it changed after the interruption; its old content is in %s\n", p, r.BackupDir)
	}
	fmt.Fprintf(&b, "\n[RECOVERED] The interrupted commit was rolled back: %s restored, %s removed, %s deleted.",
		plural(len(r.Restored), "file"), plural(len(r.Removed), "file"), plural(len(r.Temps), "temporary file"))
	return b.String()
}

// String is the report as the CLI prints it.
func (r *UndoReport) String() string {
	var b strings.Builder
	for _, p := range r.Written {
		fmt.Fprintf(&b, "Restored %s\n", p)
	}
	for _, p := range r.Created {
		fmt.Fprintf(&b, "Recreated %s\n", p)
	}
	for _, p := range r.Deleted {
		fmt.Fprintf(&b, "Deleted %s\n", p)
	}
	fmt.Fprintf(&b, "\n[UNDONE] Reverted the last fsrb commit (%s) on %s.", r.Undone, plural(len(r.Written)+len(r.Created)+len(r.Deleted), "file"))
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Recover rolls back a commit that was interrupted part-way (a crash, a
// SIGKILL, a power cut), so that every file is old again. It is idempotent:
// with nothing pending it does nothing.
func Recover(root string, opt Options) (*RecoverReport, error) {
	disk, err := NewDisk(root)
	if err != nil {
		return nil, err
	}
	st, err := openStore(disk.Root, opt, false)
	if err != nil || st == nil {
		return &RecoverReport{}, err
	}
	defer st.close()
	js, err := st.journals()
	if err != nil {
		return nil, err
	}
	rep := &RecoverReport{}
	for _, j := range pending(js) {
		rb, err := rollback(disk, j.m, j.dir)
		rep.Journal, rep.BackupDir = j.m.ID, j.dir
		rep.Restored = append(rep.Restored, rb.Restored...)
		rep.Removed = append(rep.Removed, rb.Removed...)
		rep.RemovedDirs = append(rep.RemovedDirs, rb.RemovedDirs...)
		rep.Kept = append(rep.Kept, rb.Kept...)
		rep.Temps = append(rep.Temps, rb.Temps...)
		if err != nil {
			return rep, err // still pending: running Recover again continues
		}
		j.m.State = stateRolledBack
		if err := writeManifest(j.dir, j.m); err != nil {
			return rep, err
		}
	}
	st.prune()
	return rep, nil
}

// Pending reports whether a commit in root was interrupted and Recover
// should run: the CLI warns about it before anything else.
func Pending(root string, opt Options) (bool, error) {
	disk, err := NewDisk(root)
	if err != nil {
		return false, err
	}
	st, err := openStore(disk.Root, opt, false)
	if err != nil || st == nil {
		return false, err
	}
	defer st.close()
	return st.anyPending()
}

// Undo restores the files of the last commit not yet undone, as one
// transaction like a commit. It refuses, writing nothing, when any of them
// no longer holds what that commit wrote. Calling it again undoes the
// commit before, as long as journals are kept.
func Undo(root string, opt Options) (*UndoReport, error) {
	disk, err := NewDisk(root)
	if err != nil {
		return nil, err
	}
	st, err := openStore(disk.Root, opt, false)
	if err != nil {
		return nil, err
	}
	if st == nil {
		return nil, ErrNothingToUndo
	}
	defer st.close()
	js, err := st.journals()
	if err != nil {
		return nil, err
	}
	if len(pending(js)) > 0 {
		return nil, ErrRecoveryNeeded
	}
	last := lastUndoable(js)
	if last == nil {
		return nil, ErrNothingToUndo
	}
	ops, err := inverse(disk, last)
	if err != nil {
		return nil, err
	}
	// Folders the commit pruned come back with their modes; folders it
	// created go once empty.
	modes := map[string]fs.FileMode{}
	for _, d := range last.m.Prunable {
		modes[d.Path] = d.Mode
	}
	created, err := missingDirs(disk, ops, modes)
	if err != nil {
		return nil, err
	}
	dirs := map[string]bool{}
	for _, d := range last.m.Created {
		dirs[d.Path] = true
	}
	t, err := run(disk, st, opt.Stop, kindUndo, last.m.ID, ops, created, dirsDeepestFirst(disk, dirs))
	if err != nil {
		return nil, err
	}
	// Informational: lastUndoable goes by the undo journal's Undoes.
	last.m.State = stateUndone
	_ = writeManifest(last.dir, last.m)
	return &UndoReport{Undone: last.m.ID, Result: t.result()}, nil
}

// lastUndoable is the newest committed commit that no committed undo has
// reverted yet.
func lastUndoable(js []journal) *journal {
	undone := map[string]bool{}
	for _, j := range js {
		if j.m != nil && j.m.Kind == kindUndo && j.m.State == stateCommitted {
			undone[j.m.Undoes] = true
		}
	}
	for i := len(js) - 1; i >= 0; i-- {
		if m := js[i].m; m != nil && m.Kind == kindCommit && m.State == stateCommitted && !undone[m.ID] {
			return &js[i]
		}
	}
	return nil
}

// inverse builds the ops that turn the commit of j back, after checking
// that every file still holds exactly what it wrote.
func inverse(disk *Disk, j *journal) ([]op, error) {
	var ops []op
	var changed []string // every file that moved on, so that the user sees them all at once
	for _, f := range j.m.Files {
		if real, err := disk.RealPath(f.Path); err != nil || real != f.Path {
			changed = append(changed, f.Path)
			continue
		}
		now, err := inspect(disk.abs(f.Path))
		if err != nil {
			return nil, err
		}
		if f.NewHash == "" && now.exists || f.NewHash != "" && (!now.regular || hash(now.data) != f.NewHash) {
			changed = append(changed, f.Path)
			continue
		}
		o := op{path: f.Path, existed: now.exists, old: now.data, oldMode: now.mode}
		switch {
		case !f.Existed:
			o.action, o.remove = core.ActionDelete, true
		case f.NewHash == "":
			o.action = core.ActionCreate
		default:
			o.action = core.ActionModify
		}
		if !o.remove {
			old, err := readBackup(j.dir, f)
			if err != nil {
				return nil, err
			}
			o.new = byteContent(old)
			o.newMode = f.Mode
		}
		ops = append(ops, o)
	}
	if len(changed) > 0 {
		return nil, &UndoConflictError{Path: changed[0], Paths: changed}
	}
	return ops, nil
}
