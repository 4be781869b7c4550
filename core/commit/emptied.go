package commit

import (
	"os"
	"path"
	"sort"
	"strings"

	"github.com/fsrb/fsrb/core"
)

// EmptiedFolders is the rule of which folders a plan's deletions leave
// empty, as a commit removes them and as the language server lists them
// in its WorkspaceEdit: the folders above the deleted files, never the
// root, deepest first, each of whose entries is a file the plan deletes
// or a folder of the list, and under which the plan writes no file. list
// returns the names of a folder's entries (relative slash path); a folder
// it cannot list is left out.
func EmptiedFolders(changes []core.FileChange, list func(dir string) ([]string, error)) []string {
	var deleted, written []string
	for _, c := range changes {
		if c.Action == core.ActionDelete {
			deleted = append(deleted, c.Path)
		} else {
			written = append(written, c.Path)
		}
	}
	gone := map[string]bool{}
	for _, p := range deleted {
		gone[p] = true
	}
	return emptied(foldersAbove(deleted), gone, written, list)
}

// foldersAbove lists the folders above the deleted paths, up to but never
// including the root, deepest first (a child sorts after its parent): the
// ones a deletion may leave empty.
func foldersAbove(deleted []string) []string {
	seen := map[string]bool{}
	for _, p := range deleted {
		for dir := path.Dir(p); dir != "." && dir != "/"; dir = path.Dir(dir) {
			seen[dir] = true
		}
	}
	dirs := make([]string, 0, len(seen))
	for d := range seen {
		dirs = append(dirs, d)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	return dirs
}

// emptied keeps, of dirs (deepest first), the folders that end up empty:
// each entry is gone (a deleted file, or a folder kept before it) and no
// written file lies under it. gone gains the folders kept.
func emptied(dirs []string, gone map[string]bool, written []string, list func(dir string) ([]string, error)) []string {
	var out []string
next:
	for _, dir := range dirs {
		for _, w := range written {
			if strings.HasPrefix(w, dir+"/") {
				continue next
			}
		}
		names, err := list(dir)
		if err != nil {
			continue
		}
		for _, name := range names {
			if !gone[dir+"/"+name] {
				continue next
			}
		}
		gone[dir] = true
		out = append(out, dir)
	}
	return out
}

// lister lists the folders of the disk's root.
func lister(disk *Disk) func(dir string) ([]string, error) {
	return func(dir string) ([]string, error) {
		f, err := os.Open(disk.abs(dir))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return f.Readdirnames(-1)
	}
}
