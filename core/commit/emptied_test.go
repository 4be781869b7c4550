package commit

import (
	"errors"
	"slices"
	"testing"

	"github.com/fsrb/fsrb/core"
)

// TestEmptiedFolders: the rule shared by Commit and the language server's
// WorkspaceEdit, on a listing given as data (the disk before deletions).
func TestEmptiedFolders(t *testing.T) {
	del := func(p string) core.FileChange { return core.FileChange{Path: p, Action: core.ActionDelete} }
	mod := func(p string) core.FileChange { return core.FileChange{Path: p, Action: core.ActionModify} }
	create := func(p string) core.FileChange { return core.FileChange{Path: p, Action: core.ActionCreate} }
	for _, tc := range []struct {
		name    string
		changes []core.FileChange
		disk    map[string][]string // folder → its entries; a folder not listed cannot be read
		want    []string
	}{
		{"nested, deepest first", []core.FileChange{del("a/b/c.txt")},
			map[string][]string{"a": {"b"}, "a/b": {"c.txt"}}, []string{"a/b", "a"}},
		{"a sibling keeps the parent", []core.FileChange{del("a/b/c.txt")},
			map[string][]string{"a": {"b", "keep.txt"}, "a/b": {"c.txt"}}, []string{"a/b"}},
		{"a file written under it keeps it", []core.FileChange{del("a/b/c.txt"), create("a/new.txt")},
			map[string][]string{"a": {"b"}, "a/b": {"c.txt"}}, []string{"a/b"}},
		{"a file modified beside the deleted one", []core.FileChange{del("a/x"), mod("a/y")},
			map[string][]string{"a": {"x", "y"}}, nil},
		{"two branches, then their parent", []core.FileChange{del("a/b/1"), del("a/c/2")},
			map[string][]string{"a": {"b", "c"}, "a/b": {"1"}, "a/c": {"2"}}, []string{"a/c", "a/b", "a"}},
		{"an unreadable folder stays, and so does its parent", []core.FileChange{del("a/b/c")},
			map[string][]string{"a": {"b"}}, nil},
		{"not every file deleted", []core.FileChange{del("a/1")},
			map[string][]string{"a": {"1", "2"}}, nil},
		{"the root never", []core.FileChange{del("top.txt")},
			map[string][]string{".": {"top.txt"}}, nil},
		{"no deletion", []core.FileChange{mod("a/b")},
			map[string][]string{"a": {"b"}}, nil},
	} {
		list := func(dir string) ([]string, error) {
			names, ok := tc.disk[dir]
			if !ok {
				return nil, errors.New("no such folder")
			}
			return names, nil
		}
		if got := EmptiedFolders(tc.changes, list); !slices.Equal(got, tc.want) {
			t.Errorf("%s: EmptiedFolders = %q, want %q", tc.name, got, tc.want)
		}
	}
}
