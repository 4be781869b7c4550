package commit_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

func TestNewDisk(t *testing.T) {
	root, _ := workspace(t)
	write(t, root, "file.txt", "x", 0o644)

	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	d, err := commit.NewDisk(link)
	if err != nil {
		t.Fatal(err)
	}
	if d.Root != root {
		t.Errorf("Root = %s, want the resolved %s", d.Root, root)
	}
	if _, err := commit.NewDisk(filepath.Join(root, "file.txt")); err == nil {
		t.Error("NewDisk on a file: want an error")
	}
	if _, err := commit.NewDisk(filepath.Join(root, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("NewDisk on a missing folder: %v, want fs.ErrNotExist", err)
	}
}

func TestDiskRealPath(t *testing.T) {
	root, _ := workspace(t)
	outside := t.TempDir()
	write(t, root, "src/app.py", "x", 0o644)
	write(t, root, ".git/config", "x", 0o644)
	write(t, outside, "secret", "x", 0o644)
	links := map[string]string{
		"alias.py":    "src/app.py",
		"srcdir":      "src",
		"abs.py":      filepath.Join(root, "src/app.py"),
		"escape":      filepath.Join(outside, "secret"),
		"escapedir":   outside,
		"up":          "../" + filepath.Base(outside),
		"dangling":    "src/later.py",
		"danglingout": filepath.Join(outside, "new.txt"),
		"gitlink":     ".git",
		"self":        ".",
		"loop":        "loop",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	d, err := commit.NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, want string
		err        error
	}{
		{name: "src/app.py", want: "src/app.py"},
		{name: "src/../src/app.py", want: "src/app.py"},
		{name: "new/deeper/file.go", want: "new/deeper/file.go"},
		{name: "alias.py", want: "src/app.py"},
		{name: "abs.py", want: "src/app.py"},
		{name: "srcdir/app.py", want: "src/app.py"},
		{name: "srcdir/missing/file.txt", want: "src/missing/file.txt"},
		{name: "dangling", want: "src/later.py"},
		{name: "escape", err: core.ErrOutsideRoot},
		{name: "escapedir/secret", err: core.ErrOutsideRoot},
		{name: "escapedir/new/file", err: core.ErrOutsideRoot},
		{name: "up/secret", err: core.ErrOutsideRoot},
		{name: "danglingout", err: core.ErrOutsideRoot},
		{name: "../x", err: core.ErrOutsideRoot},
		{name: "/etc/passwd", err: core.ErrOutsideRoot},
		{name: "gitlink/config", err: commit.ErrInsideGit},
		{name: ".git/HEAD", err: commit.ErrInsideGit},
		{name: "self", err: core.ErrNotRegular},
		{name: "src/app.py/child", err: core.ErrNotRegular},
		{name: "loop"},
	} {
		got, err := d.RealPath(tc.name)
		switch {
		case tc.want == "" && tc.err == nil:
			if err == nil {
				t.Errorf("RealPath(%q) = %q, want an error", tc.name, got)
			}
		case tc.err != nil:
			if !errors.Is(err, tc.err) {
				t.Errorf("RealPath(%q) = %q, %v; want %v", tc.name, got, err, tc.err)
			}
		case err != nil || got != tc.want:
			t.Errorf("RealPath(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestDiskReadFile(t *testing.T) {
	root, _ := workspace(t)
	outside := t.TempDir()
	write(t, root, "a.txt", "hello\r\n", 0o644)
	write(t, root, "dir/b.txt", "b", 0o644)
	write(t, outside, "secret", "s", 0o644)
	if err := os.Symlink("a.txt", filepath.Join(root, "alias")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	d, err := commit.NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.txt", "alias"} {
		if got, err := d.ReadFile(name); err != nil || string(got) != "hello\r\n" {
			t.Errorf("ReadFile(%q) = %q, %v", name, got, err)
		}
	}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"missing.txt", fs.ErrNotExist},
		{"dir/missing/deeper.txt", fs.ErrNotExist},
		{"dir", core.ErrNotRegular},
		{"escape", core.ErrOutsideRoot},
	} {
		if _, err := d.ReadFile(tc.name); !errors.Is(err, tc.err) {
			t.Errorf("ReadFile(%q): %v, want %v", tc.name, err, tc.err)
		}
	}
}
