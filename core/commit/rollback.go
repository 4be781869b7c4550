package commit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"
)

// rollbackReport tells what a rollback did, in workspace paths.
type rollbackReport struct {
	Restored    []string // put back to their old content
	Removed     []string // created by the transaction, removed
	Kept        []string // changed by someone else since; left as they are
	RemovedDirs []string
	Temps       []string // the transaction's temporary files, deleted
}

// rollback returns the files of m to their old state. It decides from what
// each file holds now, not from how far the transaction got, so the same
// code serves a failed commit, a crash found later by Recover, and a
// recovery that was itself interrupted (running it twice is harmless).
//
// A file holding neither the old nor the new content was changed by
// someone after the crash; overwriting it would lose that work, so it is
// kept and reported, with its old content still in the journal.
func rollback(disk *Disk, m *manifest, dir string) (rollbackReport, error) {
	var rep rollbackReport
	var errs []error
	dirModes := map[string]fs.FileMode{}
	for _, d := range m.Prunable {
		dirModes[d.Path] = d.Mode
	}
	touched := map[string]bool{}
	for i := len(m.Files) - 1; i >= 0; i-- {
		f := m.Files[i]
		did, temps, err := rollbackFile(disk, f, dir, dirModes)
		rep.Temps = append(rep.Temps, temps...)
		if errors.Is(err, errCrash) {
			return rep, err
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch did {
		case "restored":
			rep.Restored = append(rep.Restored, f.Path)
		case "removed":
			rep.Removed = append(rep.Removed, f.Path)
		case "kept":
			rep.Kept = append(rep.Kept, f.Path)
		}
		touched[path.Dir(f.Path)] = true
	}
	// Folders the transaction created go if they are empty again; a
	// folder someone put a file into meanwhile stays.
	for i := len(m.Created) - 1; i >= 0; i-- {
		d := m.Created[i].Path
		if empty, err := isEmptyDir(disk.abs(d)); err != nil || !empty {
			continue
		}
		if err := do("rollback-rmdir", d, func() error { return os.Remove(disk.abs(d)) }); err != nil {
			if errors.Is(err, errCrash) {
				return rep, err
			}
			errs = append(errs, err)
			continue
		}
		rep.RemovedDirs = append(rep.RemovedDirs, d)
		touched[path.Dir(d)] = true
	}
	for _, d := range sortedKeys(touched) {
		if _, err := os.Lstat(disk.abs(d)); err != nil {
			continue
		}
		if err := do("rollback-fsync-dir", d, func() error { return syncDir(disk.abs(d)) }); err != nil {
			if errors.Is(err, errCrash) {
				return rep, err
			}
			errs = append(errs, err)
		}
	}
	return rep, errors.Join(errs...)
}

// rollbackFile puts one file back and says what it did: "restored",
// "removed", "kept" or "" (already old), and which of its temporary files
// it deleted (paths relative to the root).
func rollbackFile(disk *Disk, f fileEntry, dir string, dirModes map[string]fs.FileMode) (string, []string, error) {
	full := disk.abs(f.Path)
	var temps []string
	for _, tmp := range []string{f.Temp, f.RestoreTemp} {
		if tmp == "" {
			continue
		}
		err := os.Remove(filepath.Join(filepath.Dir(full), tmp))
		switch {
		case err == nil:
			temps = append(temps, path.Join(path.Dir(f.Path), tmp))
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR):
			return "", temps, fmt.Errorf("remove temporary file of %s: %w", f.Path, err)
		}
	}
	did, err := putBack(disk, f, dir, dirModes)
	return did, temps, err
}

// putBack gives f's path its old state, its temporary files gone.
func putBack(disk *Disk, f fileEntry, dir string, dirModes map[string]fs.FileMode) (string, error) {
	full := disk.abs(f.Path)
	// A journaled path that now leads through a link was changed by
	// someone else; writing through it could write outside the root.
	if real, err := disk.RealPath(f.Path); err != nil || real != f.Path {
		return "kept", nil
	}
	now, err := inspect(full)
	if err != nil {
		return "", err
	}
	isNew := now.regular && f.NewHash != "" && hash(now.data) == f.NewHash
	switch {
	case f.Existed && now.regular && hash(now.data) == f.OldHash:
		return "", nil
	case f.Existed && (!now.exists || isNew):
		old, err := readBackup(dir, f)
		if err != nil {
			return "", err
		}
		if err := makeParents(disk, f.Path, dirModes); err != nil {
			return "", err
		}
		if err := writeTemp(disk, f.Path, f.RestoreTemp, byteContent(old), f.Mode, "rollback-write", "rollback-fsync"); err != nil {
			return "", err
		}
		tmp := filepath.Join(filepath.Dir(full), f.RestoreTemp)
		if err := do("rollback-rename", f.Path, func() error { return os.Rename(tmp, full) }); err != nil {
			return "", err
		}
		return "restored", nil
	case !f.Existed && !now.exists:
		return "", nil
	case !f.Existed && isNew:
		if err := do("rollback-remove", f.Path, func() error { return os.Remove(full) }); err != nil {
			return "", err
		}
		return "removed", nil
	}
	return "kept", nil
}

// makeParents recreates the folders above p that a deletion pruned, with
// their recorded modes.
func makeParents(disk *Disk, p string, modes map[string]fs.FileMode) error {
	var missing []string
	for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
		if _, err := os.Lstat(disk.abs(dir)); err == nil {
			break
		}
		missing = append(missing, dir)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		d, full := missing[i], disk.abs(missing[i])
		if err := do("rollback-mkdir", d, func() error { return mkdirMode(full, modes[d]) }); err != nil {
			return err
		}
	}
	return nil
}

// onDisk is what a path holds now.
type onDisk struct {
	exists  bool
	regular bool
	data    []byte
	mode    fs.FileMode
	fi      fs.FileInfo // from holds: what the file looked like when checked
}

// changedSince reports whether the file at full is no longer the one seen
// (nil: there was none): another inode, size or modification time, or
// gone, or there now. Cheap enough to run on every target just before the
// renames, where a second comparison of the bytes would read them again.
func changedSince(full string, seen fs.FileInfo) bool {
	now, err := os.Lstat(full)
	if seen == nil {
		return err == nil || !errors.Is(err, fs.ErrNotExist)
	}
	return err != nil || !os.SameFile(seen, now) || now.Size() != seen.Size() || !now.ModTime().Equal(seen.ModTime())
}

// lookAt says what Lstat finds at full: nothing, something that is not a
// regular file, or a regular file (with its mode and FileInfo).
func lookAt(full string) (onDisk, error) {
	fi, err := os.Lstat(full)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return onDisk{}, nil
	}
	if err != nil {
		return onDisk{}, err
	}
	if !fi.Mode().IsRegular() {
		return onDisk{exists: true}, nil
	}
	return onDisk{exists: true, regular: true, mode: fileMode(fi), fi: fi}, nil
}

// inspect is lookAt with the content of a regular file.
func inspect(full string) (onDisk, error) {
	d, err := lookAt(full)
	if err != nil || !d.regular {
		return d, err
	}
	if d.data, err = readRegular(full, 0, nil); err != nil {
		return onDisk{}, err
	}
	return d, nil
}

// holds reports what is at full and whether it is a regular file holding
// exactly want. It compares in chunks instead of reading the file whole:
// the caller holds the validated bytes already, and a second copy of a
// 100 MB file would raise the commit's peak memory by half.
func holds(full string, want []byte) (onDisk, bool, error) {
	d, err := lookAt(full)
	if err != nil || !d.regular {
		return d, false, err
	}
	if d.fi.Size() != int64(len(want)) {
		return d, false, nil
	}
	f, err := os.OpenFile(full, readFlags, 0)
	if err != nil {
		return d, false, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return onDisk{exists: true}, false, err
	}
	buf := make([]byte, min(len(want)+1, 1<<20))
	rest := want
	for {
		n, err := io.ReadFull(f, buf[:min(len(buf), len(rest)+1)])
		if n > len(rest) || !bytes.Equal(buf[:n], rest[:n]) {
			return d, false, nil
		}
		rest = rest[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return d, len(rest) == 0, nil
		case err != nil:
			return d, false, err
		}
	}
}

// fileMode is the part of a file's mode that a rewrite must keep.
func fileMode(fi fs.FileInfo) fs.FileMode {
	return fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}
