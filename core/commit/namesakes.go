package commit

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
)

// maxNamesakeWalk bounds the entries FilesNamed looks at: a guess in an
// error message is not worth a long walk of a huge tree.
const maxNamesakeWalk = 20000

// skippedDir reports the folders no patch edits by hand: version
// control, dependencies, caches and build output. A switch, not a map: a
// map literal is built in every process at start.
func skippedDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", "node_modules", "vendor",
		"__pycache__", ".venv", "venv", "target", "dist", "build":
		return true
	}
	return false
}

var errWalkDone = errors.New("walk done")

// FilesNamed implements core.Namesakes on the disk: it walks the root
// (never following links, skipping hidden and dependency folders), and
// gives up, returning nil, after maxNamesakeWalk entries.
func (d *Disk) FilesNamed(base string, limit int) []string {
	var out []string
	seen := 0
	err := filepath.WalkDir(d.Root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable folder: look elsewhere
		}
		if seen++; seen > maxNamesakeWalk {
			out = nil
			return errWalkDone
		}
		if e.IsDir() {
			if p != d.Root && (skippedDir(e.Name()) || strings.HasPrefix(e.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if e.Name() != base || !e.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(d.Root, p)
		if err != nil {
			return nil
		}
		out = append(out, filepath.ToSlash(rel))
		if len(out) == limit {
			return errWalkDone
		}
		return nil
	})
	if err != nil && !errors.Is(err, errWalkDone) {
		return nil
	}
	return out
}
