package commit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/fsrb/fsrb/core"
)

// ErrInsideGit reports a path that resolves into a .git folder. core.CleanPath
// refuses such paths as written; this catches the ones that only get there
// through a symbolic link.
var ErrInsideGit = core.ErrInsideGit

// MaxFileSize bounds the files the engine reads: validating and
// committing hold a file about once (its new content stays pieces of the
// old one and is streamed to disk), twice for a CRLF file (an LF copy for
// matching), more where a diff or an editor edit needs the new bytes
// whole; a 256 MiB file stays well under 2 GiB. SECURITY.md documents the
// limit.
const MaxFileSize = 256 << 20

// ErrTooLarge reports a file over MaxFileSize.
var ErrTooLarge = errors.New("the file is larger than fsrb's limit of 256 MiB")

// Disk is the workspace on disk, as the CLI's engine reads it.
type Disk struct {
	// Root is absolute, clean and free of symbolic links (NewDisk makes it
	// so): every containment check compares resolved paths against it, and
	// /tmp or a home folder may itself be a link.
	Root string

	// Arena, when set, holds the files read (see Arena: for a process
	// that exits after one run).
	Arena *Arena
}

var _ core.FS = (*Disk)(nil)

// NewDisk opens the workspace rooted at root.
func NewDisk(root string) (*Disk, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("workspace root %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("workspace root: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace root %s is not a folder", root)
	}
	return &Disk{Root: filepath.Clean(real)}, nil
}

// ReadFile returns the content of the regular file name (a clean slash path
// relative to the root), following symbolic links that stay inside the root.
func (d *Disk) ReadFile(name string) ([]byte, error) {
	real, err := d.RealPath(name)
	if err != nil {
		return nil, err
	}
	data, err := readRegular(d.abs(real), MaxFileSize, d.Arena)
	if err != nil {
		return nil, relabel(err, name)
	}
	return data, nil
}

// RealPath resolves symbolic links in name and returns the real path,
// slash-separated and relative to the root. Missing trailing parts (a file
// or folders a commit will create) resolve through their deepest existing
// parent.
func (d *Disk) RealPath(name string) (string, error) {
	local := filepath.FromSlash(name)
	if !filepath.IsLocal(local) {
		return "", fmt.Errorf("%s: %w", name, core.ErrOutsideRoot)
	}
	real, err := resolveIn(d.Root, local)
	if err != nil {
		return "", relabel(err, name)
	}
	rel, err := filepath.Rel(d.Root, real)
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("%s resolves to %s, outside the workspace %s: %w", name, real, d.Root, core.ErrOutsideRoot)
	}
	if rel == "." {
		return "", fmt.Errorf("%s resolves to the workspace root itself: %w", name, core.ErrNotRegular)
	}
	slash := filepath.ToSlash(rel)
	if insideGit(slash) {
		return "", fmt.Errorf("%s resolves to %s; fsrb never edits git's internals: %w", name, slash, ErrInsideGit)
	}
	return slash, nil
}

func (d *Disk) abs(rel string) string { return filepath.Join(d.Root, filepath.FromSlash(rel)) }

// maxLinks bounds link chains as the kernel does (Linux's MAXSYMLINKS).
const maxLinks = 40

// resolveIn is resolve(filepath.Join(root, local)) for a root free of links:
// only what lies below root can be a link, so only that is looked at.
// EvalSymlinks walks every folder from "/" again for every path, a stat call
// for each folder of each path resolved (make bench, W1: twenty files, each
// resolved twice). A path that is not plain (a link, a missing part, a file
// where a folder should be) goes to resolve whole, so its answer is
// resolve's.
func resolveIn(root, local string) (string, error) {
	abs := filepath.Join(root, local)
	if filepath.Clean(local) != local {
		return resolve(abs, 0)
	}
	cur := root
	for rest := local; rest != ""; {
		part := rest
		if i := strings.IndexByte(rest, filepath.Separator); i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 || rest != "" && !fi.IsDir() {
			return resolve(abs, 0)
		}
	}
	return cur, nil
}

// resolve is filepath.EvalSymlinks for paths that may not exist yet. A
// dangling link is followed by hand: writing "through" it creates its
// target, so that target is what must stay inside the root.
func resolve(abs string, hops int) (string, error) {
	if hops > maxLinks {
		return "", &fs.PathError{Op: "resolve", Path: abs, Err: syscall.ELOOP}
	}
	existing := abs
	var missing []string // innermost first
	for {
		_, err := os.Lstat(existing)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return "", err
		}
		parent := filepath.Dir(existing)
		if parent == existing {
			return "", err
		}
		missing = append(missing, filepath.Base(existing))
		existing = parent
	}
	for i, j := 0, len(missing)-1; i < j; i, j = i+1, j-1 {
		missing[i], missing[j] = missing[j], missing[i]
	}
	rest := filepath.Join(missing...)

	real, err := filepath.EvalSymlinks(existing)
	if errors.Is(err, fs.ErrNotExist) {
		// Lstat found existing, so every folder above it resolves: only its
		// last element can be a dangling link.
		target, lerr := os.Readlink(existing)
		if lerr != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			parent, perr := filepath.EvalSymlinks(filepath.Dir(existing))
			if perr != nil {
				return "", perr
			}
			target = filepath.Join(parent, target)
		}
		return resolve(filepath.Join(target, rest), hops+1)
	}
	if err != nil {
		return "", err
	}
	if rest == "" {
		return real, nil
	}
	if fi, err := os.Stat(real); err != nil {
		return "", err
	} else if !fi.IsDir() {
		return "", fmt.Errorf("%s is a file, not a folder: %w", real, core.ErrNotRegular)
	}
	return filepath.Join(real, rest), nil
}

// readRegular reads full only if it is a regular file of at most limit
// bytes (0: any size). Lstat comes first because opening a fifo would
// block forever; the flags and the Stat of the open file cover a swap
// between the two, and give the size (a Stat before the open would be one
// more call a file). Small files' buffers come from a (nil: their
// own).
func readRegular(full string, limit int64, a *Arena) ([]byte, error) {
	fi, err := os.Lstat(full)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: full, Err: core.ErrNotRegular}
	}
	f, err := os.OpenFile(full, readFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err = f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: full, Err: core.ErrNotRegular}
	}
	if limit > 0 && fi.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: full, Err: fmt.Errorf("%w: it holds %d bytes", ErrTooLarge, fi.Size())}
	}
	if fi.Size() >= parallelReadMin && runtime.GOMAXPROCS(0) > 1 {
		if buf, ok := readParallel(f, fi.Size()); ok {
			return buf, nil
		}
	}
	return readSized(f, fi.Size(), a)
}

// parallelReadMin is the smallest file readParallel reads.
const parallelReadMin = 1 << 20

// readParallel reads a big file as two or more ranges at once (pread, one
// goroutine a range). Most of a big read's time is the kernel faulting in
// and zeroing the new buffer's pages and copying into them, page by page,
// which two cores do in about half the time (make bench, W4 50k and W6).
// Below the 1 MiB floor the second thread costs more than it saves (make
// bench, W2: its file gained nothing). ok is
// false when the file is not size bytes long any more (it shrank or
// grew since Stat): the caller then reads it in one stream, as a
// changing file always was.
func readParallel(f *os.File, size int64) ([]byte, bool) {
	buf := readBuffer(int(size) + 1)
	parts := int64(min(runtime.GOMAXPROCS(0), 4))
	var wg sync.WaitGroup
	var short atomic.Bool
	for k := range parts {
		lo, hi := size*k/parts, size*(k+1)/parts
		wg.Go(func() {
			for lo < hi {
				n, err := f.ReadAt(buf[lo:hi], lo)
				lo += int64(n)
				if err != nil && lo < hi {
					short.Store(true)
					return
				}
			}
		})
	}
	wg.Wait()
	if short.Load() {
		return nil, false
	}
	if n, _ := f.ReadAt(buf[size:], size); n != 0 {
		return nil, false // grew since Stat
	}
	return buf[:size], true
}

// readSized reads f to its end into a buffer of the size Stat gave (plus
// one byte, to see EOF without growing), from a: io.ReadAll's doubling
// costs a 100 MB file six reallocations and 200 MB of cleared memory.
func readSized(f io.Reader, size int64, a *Arena) ([]byte, error) {
	buf := a.buffer(int(max(512, size+1)))[:0]
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) { // grew since Stat
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

// relabel names errors after the path the caller gave, not the absolute
// one, since users see these messages.
func relabel(err error, name string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return fmt.Errorf("%s: %w", name, err)
}

func insideGit(slash string) bool {
	for _, part := range strings.Split(slash, "/") {
		if strings.EqualFold(part, ".git") {
			return true
		}
	}
	return false
}
