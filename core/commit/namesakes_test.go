package commit

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestFilesNamed(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{
		"dir/file3.py", "a/util.py", "b/util.py",
		".git/file3.py", "node_modules/x/file3.py", ".cache/file3.py", "vendor/file3.py",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.FilesNamed("file3.py", 2); !slices.Equal(got, []string{"dir/file3.py"}) {
		t.Errorf("FilesNamed(file3.py) = %q, want only dir/file3.py (.git, dependencies and hidden folders skipped)", got)
	}
	if got := d.FilesNamed("util.py", 2); len(got) != 2 {
		t.Errorf("FilesNamed(util.py) = %q, want both", got)
	}
	if got := d.FilesNamed("util.py", 1); len(got) != 1 {
		t.Errorf("FilesNamed(util.py, 1) = %q, want one: the limit", got)
	}
	if got := d.FilesNamed("nothing.py", 2); len(got) != 0 {
		t.Errorf("FilesNamed(nothing.py) = %q", got)
	}
}
