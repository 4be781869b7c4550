package commit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/fsrb/fsrb/core"
)

// op is one file of a transaction: what it holds now and what it will hold.
// Commit builds ops from a plan; Undo builds them from a journal.
type op struct {
	path    string // real path, slash-separated, relative to the root
	action  core.Action
	existed bool
	old     []byte
	oldMode fs.FileMode
	seen    fs.FileInfo // the target when the commit checked it (nil: none); Commit's ops only
	checked bool        // seen is set: recheck before the renames
	remove  bool
	// new is the new content (nil when remove): a core.FileChange for
	// Commit's ops, which writes its pieces into the temporary file and
	// the hasher without ever being built whole, so a big file costs no
	// second copy (make bench, W6: peak RSS); a backup's bytes for Undo's.
	new     io.WriterTo
	newMode fs.FileMode // 0: 0644 under the umask, as for any new file
}

// byteContent is content already in memory, as an io.WriterTo.
type byteContent []byte

func (b byteContent) WriteTo(w io.Writer) (int64, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, err := w.Write(b)
	return int64(n), err
}

// tx is a transaction whose journal is written: from here on a failure
// must roll back, and a crash leaves a pending journal for Recover.
type tx struct {
	disk        *Disk
	st          *store
	dir         string
	m           *manifest
	ops         []op
	removedDirs []string
	stop        <-chan struct{} // Options.Stop
}

// run journals ops, applies them and marks the journal committed; on any
// failure it rolls back and returns a *CommitError.
func run(disk *Disk, st *store, stop <-chan struct{}, k kind, undoes string, ops []op, created, prunable []dirEntry) (*tx, error) {
	t, err := begin(disk, st, stop, k, undoes, ops, created, prunable)
	if err != nil {
		return nil, err
	}
	if err := t.apply(); err != nil {
		aborted := t.abort(err)
		var conflict *ConflictError
		var ce *CommitError
		if errors.As(err, &conflict) && errors.As(aborted, &ce) && ce.RolledBack {
			return nil, conflict // nothing was written: say what changed, as before the journal
		}
		return nil, aborted
	}
	// The commit point: once this manifest is durable, the new state is
	// the one a recovery keeps, and a Stop no longer interrupts: what is
	// left (the journal's pruning) is never half done.
	t.m.State = stateCommitted
	if err := do("journal", "committed", func() error { return writeManifest(t.dir, t.m) }); err != nil {
		return nil, t.abort(err)
	}
	st.prune()
	st.sweepOrphans(time.Now())
	return t, nil
}

// begin writes the journal: every backup, then the manifest, all synced
// before the workspace is touched.
func begin(disk *Disk, st *store, stop <-chan struct{}, k kind, undoes string, ops []op, created, prunable []dirEntry) (*tx, error) {
	if watchStop != nil {
		watchStop(stop)
	}
	if stopped(stop) {
		return nil, &CommitError{Op: "interrupt", Err: ErrInterrupted, RolledBack: true}
	}
	id, dir, err := st.newJournal()
	if err != nil {
		return nil, &CommitError{Op: "journal", Path: st.dir, Err: err, RolledBack: true}
	}
	t := &tx{disk: disk, st: st, dir: dir, ops: ops, stop: stop, m: &manifest{
		Version: 1, ID: id, Kind: k, Undoes: undoes, Root: disk.Root, State: statePending,
		Time: time.Now().UTC(), Created: created, Prunable: prunable,
	}}
	tag := id[len(id)-8:]
	err = func() error {
		for i, o := range ops {
			f := fileEntry{Path: o.path, Action: o.action, Existed: o.existed}
			n := strconv.Itoa(i)
			if o.existed {
				f.Mode, f.OldHash, f.Backup = o.oldMode, hash(o.old), n+".old"
				f.RestoreTemp = tempName(o.path, tag+"-"+n+"r")
				if err := t.do("backup", o.path, func() error { return backupFile(disk.abs(o.path), filepath.Join(dir, f.Backup), o.old) }); err != nil {
					return err
				}
			}
			if !o.remove {
				f.NewMode, f.NewHash = o.newMode, hashContent(o.new)
				f.Temp = tempName(o.path, tag+"-"+n)
			}
			t.m.Files = append(t.m.Files, f)
		}
		return t.do("journal", "manifest", func() error {
			if err := writeManifest(dir, t.m); err != nil {
				return err
			}
			return syncDir(st.dir)
		})
	}()
	if err != nil {
		if errors.Is(err, errCrash) {
			return nil, err
		}
		// Nothing in the workspace was touched yet.
		os.RemoveAll(dir)
		return nil, newCommitError(err, true, nil, nil)
	}
	return t, nil
}

// apply makes every change in two phases: all new contents are written and
// synced beside their targets first, so that the second phase is only
// renames and removals, the steps least likely to fail.
//
// renameio's PendingFile does temp+fsync+rename for one file, but it picks
// the temporary name itself (".<base><random>") only once the file exists.
// The journal must name every temporary file before it is created, so that
// after a SIGKILL Recover removes exactly fsrb's files and never a user's
// ".notes2024"; so the workspace side is done by hand here, and renameio
// writes the journal's manifest (writeManifest), where it fits.
func (t *tx) apply() error {
	for _, d := range t.m.Created {
		if err := t.do("mkdir", d.Path, func() error { return mkdirMode(t.disk.abs(d.Path), d.Mode) }); err != nil {
			return err
		}
	}
	for i, o := range t.ops {
		if !o.remove {
			if err := writeTemp(t.disk, o.path, t.m.Files[i].Temp, o.new, o.newMode, "temp-write", "fsync"); err != nil {
				return err
			}
			if err := t.interrupted("fsync", o.path); err != nil {
				return err
			}
		}
	}
	// The targets were compared with the plan before the journal was
	// written; writing and syncing the new contents of big files takes long
	// enough for an editor to save one of them meanwhile. Look again right
	// before the renames: a change since is refused, never overwritten.
	for _, o := range t.ops {
		if o.checked && changedSince(t.disk.abs(o.path), o.seen) {
			return &stepError{"recheck", o.path, &ConflictError{Path: o.path}}
		}
	}
	if err := t.interrupted("recheck", ""); err != nil {
		return err
	}
	for i, o := range t.ops {
		if !o.remove {
			tmp := filepath.Join(filepath.Dir(t.disk.abs(o.path)), t.m.Files[i].Temp)
			if err := t.do("rename", o.path, func() error { return os.Rename(tmp, t.disk.abs(o.path)) }); err != nil {
				return err
			}
		}
	}
	for _, o := range t.ops {
		if o.remove {
			if err := t.do("remove", o.path, func() error { return os.Remove(t.disk.abs(o.path)) }); err != nil {
				return err
			}
		}
	}
	// The deleted files are gone: the folders left empty are the ones of
	// the journal that EmptiedFolders' rule keeps, on the disk as it is now.
	prunable := make([]string, len(t.m.Prunable))
	for i, d := range t.m.Prunable {
		prunable[i] = d.Path
	}
	var written []string
	for _, o := range t.ops {
		if !o.remove {
			written = append(written, o.path)
		}
	}
	left := map[string]bool{}
	for _, dir := range emptied(prunable, map[string]bool{}, written, lister(t.disk)) {
		left[dir] = true
	}
	for _, d := range t.m.Prunable {
		full := t.disk.abs(d.Path)
		empty, err := isEmptyDir(full)
		if err != nil || !empty || !left[d.Path] {
			continue // gone already, or still holds something: not ours to remove
		}
		if err := t.do("rmdir", d.Path, func() error { return os.Remove(full) }); err != nil {
			return err
		}
		t.removedDirs = append(t.removedDirs, d.Path)
	}
	for _, dir := range t.touchedDirs() {
		if err := t.do("fsync-dir", dir, func() error { return syncDir(t.disk.abs(dir)) }); err != nil {
			return err
		}
	}
	return t.interrupted("fsync-dir", "")
}

// do runs one step of the transaction, as do does, then stops it if its
// Stop is closed: a rollback follows.
func (t *tx) do(op, path string, f func() error) error {
	if err := do(op, path, f); err != nil {
		return err
	}
	return t.interrupted(op, path)
}

// interrupted is the stepError that rolls the transaction back when its
// Stop is closed, after the step op on path.
func (t *tx) interrupted(op, path string) error {
	if stopped(t.stop) {
		return &stepError{op, path, ErrInterrupted}
	}
	return nil
}

func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// writeTemp writes data to the temporary file name beside target and syncs
// it; data writes itself (core.FileChange.WriteTo: from its pieces). A new file (mode 0) gets 0644 under the umask, as an editor would
// give it; a kept or restored mode is set exactly, umask or not, setuid
// bits included.
func writeTemp(disk *Disk, target, name string, data io.WriterTo, mode fs.FileMode, writeStep, syncStep string) error {
	full := filepath.Join(filepath.Dir(disk.abs(target)), name)
	perm := fs.FileMode(0o644)
	if mode != 0 {
		perm = mode.Perm()
	}
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return &stepError{writeStep, target, err}
	}
	defer f.Close()
	err = do(writeStep, target, func() error {
		if mode != 0 {
			if err := f.Chmod(mode); err != nil {
				return err
			}
		}
		_, err := data.WriteTo(f)
		return err
	})
	if err != nil {
		return err
	}
	if err := do(syncStep, target, f.Sync); err != nil {
		return err
	}
	return f.Close()
}

// touchedDirs are the folders whose entries changed, existing ones only,
// sorted; syncing them makes the renames and removals durable.
func (t *tx) touchedDirs() []string {
	seen := map[string]bool{}
	add := func(p string) {
		dir := path.Dir(p)
		if _, err := os.Lstat(t.disk.abs(dir)); err == nil {
			seen[dir] = true
		}
	}
	for _, o := range t.ops {
		add(o.path)
	}
	for _, d := range t.m.Created {
		add(d.Path)
	}
	for _, d := range t.removedDirs {
		add(d)
	}
	return sortedKeys(seen)
}

// abort rolls back after a failed step. A crash (tests only) stops dead,
// as a killed process would.
func (t *tx) abort(cause error) error {
	if errors.Is(cause, errCrash) {
		return cause
	}
	rep, rbErr := rollback(t.disk, t.m, t.dir)
	if errors.Is(rbErr, errCrash) {
		return rbErr
	}
	switch {
	case rbErr != nil:
		// The journal stays pending so that Recover can finish the job.
	case len(rep.Kept) > 0:
		t.m.State = stateRolledBack
		_ = writeManifest(t.dir, t.m) // kept: its backups are the only copy of the old content
	default:
		// All old again: the journal has nothing left to offer.
		_ = os.RemoveAll(t.dir)
		_ = syncDir(t.st.dir)
	}
	return newCommitError(cause, rbErr == nil && len(rep.Kept) == 0, rbErr, rep.Kept)
}

func newCommitError(cause error, rolledBack bool, rbErr error, kept []string) *CommitError {
	e := &CommitError{Err: cause, RolledBack: rolledBack, RollbackErr: rbErr, Kept: kept}
	var se *stepError
	if errors.As(cause, &se) {
		e.Op, e.Path, e.Err = se.op, se.path, se.err
	}
	return e
}

// result describes a finished transaction for the caller.
func (t *tx) result() Result {
	r := Result{Journal: t.m.ID, RemovedDirs: t.removedDirs}
	for _, o := range t.ops {
		switch {
		case o.remove:
			r.Deleted = append(r.Deleted, o.path)
		case o.action == core.ActionCreate || !o.existed:
			r.Created = append(r.Created, o.path)
		default:
			r.Written = append(r.Written, o.path)
		}
	}
	for _, d := range t.m.Created {
		r.CreatedDirs = append(r.CreatedDirs, d.Path)
	}
	return r
}

// tempName names a temporary file beside target: hidden, marked as
// fsrb's, unique to the transaction, and within the 255-byte name limit.
func tempName(target, tag string) string {
	base := path.Base(target)
	suffix := ".fsrb-tmp-" + tag
	if max := 255 - 1 - len(suffix); len(base) > max {
		for max > 0 && !utf8.RuneStart(base[max]) {
			max--
		}
		base = base[:max]
	}
	return "." + base + suffix
}

// missingDirs lists the folders that must be created for the new files of
// ops, parents first; modes gives the mode of a folder being restored.
func missingDirs(disk *Disk, ops []op, modes map[string]fs.FileMode) ([]dirEntry, error) {
	seen := map[string]bool{}
	for _, o := range ops {
		if o.remove {
			continue
		}
		for dir := path.Dir(o.path); dir != "." && !seen[dir]; dir = path.Dir(dir) {
			fi, err := os.Lstat(disk.abs(dir))
			if err == nil {
				if !fi.IsDir() {
					return nil, fmt.Errorf("cannot create %s: %s is not a folder: %w", o.path, dir, core.ErrNotRegular)
				}
				break
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			seen[dir] = true
		}
	}
	var out []dirEntry
	for _, d := range sortedKeys(seen) { // a parent sorts before its children
		out = append(out, dirEntry{Path: d, Mode: modes[d]})
	}
	return out, nil
}

// dirsDeepestFirst records existing folders among dirs with their modes,
// children before parents: the order in which emptied folders can go.
func dirsDeepestFirst(disk *Disk, dirs map[string]bool) []dirEntry {
	keys := sortedKeys(dirs)
	var out []dirEntry
	for i := len(keys) - 1; i >= 0; i-- {
		if fi, err := os.Lstat(disk.abs(keys[i])); err == nil && fi.IsDir() {
			out = append(out, dirEntry{Path: keys[i], Mode: fileMode(fi)})
		}
	}
	return out
}

// mkdirMode makes a folder: mode 0 means 0777 under the umask, as
// mkdir(1); a restored folder gets its recorded mode exactly.
func mkdirMode(full string, mode fs.FileMode) error {
	if mode == 0 {
		return os.Mkdir(full, 0o777)
	}
	if err := os.Mkdir(full, mode.Perm()); err != nil {
		return err
	}
	return os.Chmod(full, mode)
}

func isEmptyDir(full string) (bool, error) {
	f, err := os.Open(full)
	if err != nil {
		return false, err
	}
	defer f.Close()
	_, err = f.Readdirnames(1)
	if err == io.EOF {
		return true, nil
	}
	return false, err
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
