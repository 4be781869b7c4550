package commit

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/fsrb/fsrb/core"
	"github.com/google/renameio/v2/maybe"
)

// The journal of a workspace lives in <StateDir>/<sha256(root)[:16]>/: one
// folder per transaction, named so that names sort by time, holding a
// backup of every old file and manifest.json. It is outside the workspace
// so that it never shows in `git status` (docs/ARCHITECTURE.md
// "Operations and safety").

const (
	manifestName  = "manifest.json"
	lockName      = "lock"
	rootName      = "root"           // a store's file naming its workspace root (sweepOrphans reads it)
	storeNameLen  = 16               // hex digits of the root's hash that name its store
	keepCommitted = 10               // committed journals kept per root, for undo (see prune)
	lockWait      = 10 * time.Second // a commit takes milliseconds; longer means stuck
)

// keepBytes bounds the bytes the journals of one root keep (old contents,
// most of it), for undo: a few commits to big files had grown a
// workspace's journals to 81 MB. The newest commit's journal stays
// whatever its size. A variable for the tests.
var keepBytes int64 = 128 << 20

type state string

const (
	statePending    state = "pending"     // files may be half written: Recover rolls back
	stateCommitted  state = "committed"   // all new; Undo may restore the backups
	stateRolledBack state = "rolled-back" // all old again (except files reported as kept)
	stateUndone     state = "undone"      // a later undo journal restored the backups
)

type kind string

const (
	kindCommit kind = "commit"
	kindUndo   kind = "undo"
)

// manifest is the journal of one transaction, enough to roll it back after
// a crash without knowing how far it got.
type manifest struct {
	Version int         `json:"version"`
	ID      string      `json:"id"`
	Kind    kind        `json:"kind"`
	Undoes  string      `json:"undoes,omitempty"` // for an undo: the commit it undoes
	Root    string      `json:"root"`
	State   state       `json:"state"`
	Time    time.Time   `json:"time"`
	Files   []fileEntry `json:"files"`
	// Created are the folders the transaction creates, parents first.
	Created []dirEntry `json:"created_dirs,omitempty"`
	// Prunable are the folders it removes if they end up empty, deepest
	// first, with their modes so that a rollback can make them again.
	Prunable []dirEntry `json:"prunable_dirs,omitempty"`
}

type fileEntry struct {
	Path    string      `json:"path"` // real path, slash-separated, relative to the root
	Action  core.Action `json:"action"`
	Existed bool        `json:"existed"`
	Mode    fs.FileMode `json:"mode,omitempty"`     // of the old file, restored with it
	NewMode fs.FileMode `json:"new_mode,omitempty"` // of the new file; 0: 0644 under the umask
	Backup  string      `json:"backup,omitempty"`   // file in the journal folder holding the old content
	OldHash string      `json:"old_sha256,omitempty"`
	NewHash string      `json:"new_sha256,omitempty"` // empty when the file is deleted
	// Temp and RestoreTemp are named here, before they exist, so that a
	// recovery removes exactly fsrb's leftovers and never a user's file.
	Temp        string `json:"temp,omitempty"`
	RestoreTemp string `json:"restore_temp,omitempty"`
}

type dirEntry struct {
	Path string      `json:"path"`
	Mode fs.FileMode `json:"mode,omitempty"` // 0: 0777 under the umask, as mkdir(1)
}

// store is the locked journal folder of one workspace root.
type store struct {
	dir    string
	unlock func()
}

// journal is one transaction folder; m is nil when the process died before
// its manifest was written (then the workspace was never touched).
type journal struct {
	dir string
	m   *manifest
}

// Options configures where journals live.
type Options struct {
	// StateDir is the base folder of journals. Default:
	// $XDG_STATE_HOME/fsrb, else ~/.local/state/fsrb.
	StateDir string
	// Stop, once closed, interrupts a commit or an undo that has not
	// reached its commit point: it rolls back, every file old again, and
	// returns a *CommitError wrapping ErrInterrupted. Past that point the
	// transaction finishes: all new, never half. The CLI closes it on
	// SIGINT and SIGTERM; nil never interrupts.
	Stop <-chan struct{}
}

func (o Options) stateDir() (string, error) {
	if o.StateDir != "" {
		return filepath.Abs(o.StateDir)
	}
	// The XDG spec says relative values are invalid and must be ignored.
	if x := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "fsrb"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no folder for the journal: set XDG_STATE_HOME (%w)", err)
	}
	return filepath.Join(home, ".local", "state", "fsrb"), nil
}

// openStore locks root's journal folder. With create false a missing
// folder gives (nil, nil): there is nothing to read.
func openStore(root string, opt Options, create bool) (*store, error) {
	base, err := opt.stateDir()
	if err != nil {
		return nil, err
	}
	// Checked before anything is created, or the check would litter the
	// very workspace it protects.
	real, err := resolve(base, 0)
	if err != nil {
		return nil, fmt.Errorf("journal folder %s: %w", base, err)
	}
	if rel, err := filepath.Rel(root, real); err == nil && filepath.IsLocal(rel) {
		return nil, fmt.Errorf("the journal folder %s is inside the workspace %s, where `git status` would show it; set XDG_STATE_HOME to a folder outside it", base, root)
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(real, hex.EncodeToString(sum[:])[:storeNameLen])
	if !create {
		if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("journal folder: %w", err)
	}
	// The hash hides which workspace a folder belongs to; this tells people.
	if _, err := os.Stat(filepath.Join(dir, rootName)); errors.Is(err, fs.ErrNotExist) {
		_ = os.WriteFile(filepath.Join(dir, rootName), []byte(root+"\n"), 0o600)
	}
	unlock, err := lockFile(filepath.Join(dir, lockName), lockWait)
	if err != nil {
		return nil, fmt.Errorf("journal lock: %w", err)
	}
	return &store{dir: dir, unlock: unlock}, nil
}

func (s *store) close() {
	if s != nil {
		s.unlock()
	}
}

// journalDirs lists the transactions' folders, oldest first (their names
// start with the time).
func (s *store) journalDirs() ([]string, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(s.dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// journals lists the transactions, oldest first.
func (s *store) journals() ([]journal, error) {
	dirs, err := s.journalDirs()
	if err != nil {
		return nil, err
	}
	out := make([]journal, 0, len(dirs))
	for _, dir := range dirs {
		j := journal{dir: dir}
		m, err := readManifest(dir)
		switch {
		case err == nil:
			j.m = m
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}

// anyPending reports whether a transaction of the store was interrupted.
// Every run of the CLI asks, and a workspace keeps its last commits for
// undo: decoding all their manifests on every run is a visible share of
// a small dry run. A manifest that
// does not hold the word "pending" anywhere cannot be in that state, so
// only the others are decoded.
func (s *store) anyPending() (bool, error) {
	dirs, err := s.journalDirs()
	if err != nil {
		return false, err
	}
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, manifestName))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return false, err
		case !bytes.Contains(data, []byte(statePending)):
			continue
		}
		m, err := decodeManifest(dir, data)
		if err != nil {
			return false, err
		}
		if m.State == statePending {
			return true, nil
		}
	}
	return false, nil
}

// pending lists the interrupted transactions, newest first: rolling back
// in reverse order is right even if there were ever more than one.
func pending(js []journal) []journal {
	var out []journal
	for i := len(js) - 1; i >= 0; i-- {
		if js[i].m != nil && js[i].m.State == statePending {
			out = append(out, js[i])
		}
	}
	return out
}

// newJournal makes the folder of a new transaction. Its name starts with
// the time so that names sort in commit order; the random tail also names
// the transaction's temporary files.
func (s *store) newJournal() (id, dir string, err error) {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", err
	}
	id = time.Now().UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(b[:])
	dir = filepath.Join(s.dir, id)
	return id, dir, os.Mkdir(dir, 0o700)
}

// writeManifest replaces the manifest atomically (renameio: temp file,
// fsync, rename), so that a crash leaves the old state or the new one,
// never half a JSON document; then makes the rename durable.
func writeManifest(dir string, m *manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := maybe.WriteFile(filepath.Join(dir, manifestName), append(data, '\n'), 0o600); err != nil {
		return err
	}
	return syncDir(dir)
}

func readManifest(dir string) (*manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return nil, err
	}
	return decodeManifest(dir, data)
}

func decodeManifest(dir string, data []byte) (*manifest, error) {
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("journal %s is damaged: %w", dir, err)
	}
	return &m, nil
}

// writeBackup stores an old file's content in the journal, durably, before
// the workspace is touched.
func writeBackup(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// linkBackupMin is the size from which a backup is a hard link to the old
// file rather than a copy. A commit never writes a target in place (it
// renames a new file over it), so the old inode, once linked into the
// journal, keeps the old bytes unchanged: a 100 MB file costs no copy and
// no 100 MB write. Small files are copied: cheap, and independent of the
// workspace's file system.
const linkBackupMin = 1 << 20

// backupFile stores the old content of target (data) at path: by a hard
// link when target is big, has no other name, and still holds len(data)
// bytes; by a copy otherwise, or when linking fails (the journal on
// another file system, a file system without links).
func backupFile(target, path string, data []byte) error {
	if len(data) >= linkBackupMin {
		if fi, err := os.Lstat(target); err == nil && fi.Mode().IsRegular() && singleLink(fi) && fi.Size() == int64(len(data)) {
			if err := os.Link(target, path); err == nil {
				if err := syncFile(path); err != nil {
					os.Remove(path)
					return err
				}
				return nil
			}
		}
	}
	return writeBackup(path, data)
}

// syncFile makes a file's bytes durable: the old file may never have been
// synced by whoever wrote it.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// readBackup returns a backup only if it still hashes to what was saved:
// restoring a damaged backup would turn a failed commit into data loss.
func readBackup(dir string, f fileEntry) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(dir, f.Backup))
	if err != nil {
		return nil, fmt.Errorf("backup of %s: %w", f.Path, err)
	}
	if hash(data) != f.OldHash {
		return nil, fmt.Errorf("backup of %s in %s is damaged (its sha256 differs from the journal's)", f.Path, dir)
	}
	return data, nil
}

// prune keeps, newest first, the journals up to the keepCommitted-th
// committed commit, and of those no more than keepBytes, the newest
// committed commit's always included: undo goes back that far. Older
// journals go; pending journals always stay. Failures are ignored: a
// journal left over costs disk space, nothing else.
func (s *store) prune() {
	js, err := s.journals()
	if err != nil {
		return
	}
	committed := 0
	var size int64
	cut := false
	for i := len(js) - 1; i >= 0; i-- {
		m := js[i].m
		if m != nil && m.State == statePending {
			continue
		}
		if !cut && m != nil {
			size += dirSize(js[i].dir)
			cut = committed >= keepCommitted || committed > 0 && size > keepBytes
		}
		// m == nil: a commit that died before its manifest existed; we
		// hold the lock, so it is not one being written now.
		if cut || m == nil {
			_ = os.RemoveAll(js[i].dir)
			continue
		}
		if m.Kind == kindCommit && m.State == stateCommitted {
			committed++
		}
	}
}

// dirSize is the bytes of the files in dir (a journal: no subfolders).
// A backup that is a hard link counts whole: once the commit replaced its
// file, the journal holds the only name of those bytes.
func dirSize(dir string) int64 {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var n int64
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			n += fi.Size()
		}
	}
	return n
}

// hashContent is hash of the bytes c writes, streamed into the hasher:
// the journal's new_sha256 of a FileChange, taken from its pieces.
func hashContent(c io.WriterTo) string {
	h := sha256.New()
	_, _ = c.WriteTo(h) // a hash.Hash never fails a write
	return hex.EncodeToString(h.Sum(nil))
}

func hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
