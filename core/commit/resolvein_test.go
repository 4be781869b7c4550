package commit

import (
	"os"
	"path/filepath"
	"testing"
)

// resolveIn answers as resolve does on every kind of path: plain ones,
// links inside and outside the root, dangling links, missing parts, a file
// where a folder should be.
func TestResolveInIsResolve(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := func(p string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("src/pkg")
	file("src/pkg/a.py")
	file("top.txt")
	link("pkg", "src/alias")                        // a folder link inside
	link(outside, "out")                            // a folder link outside
	link("../top.txt", "src/toplink")               // a file link inside
	link("nowhere/new.txt", "src/dangling")         // dangling, inside
	link(filepath.Join(outside, "x"), "src/escape") // dangling, outside
	link("loop2", "loop1")
	link("loop1", "loop2")
	paths := []string{
		"top.txt", "src", "src/pkg", "src/pkg/a.py", "src/pkg/new.py", "src/new/deeper/b.py",
		"src/alias/a.py", "src/alias/new.py", "out/a.py", "out", "src/toplink", "src/dangling",
		"src/escape", "top.txt/x", "src/pkg/a.py/y", "loop1", "loop1/x", ".",
		filepath.Join("src", "pkg", "..", "pkg", "a.py"),
	}
	for _, p := range paths {
		local := filepath.FromSlash(p)
		got, gotErr := resolveIn(root, local)
		want, wantErr := resolve(filepath.Join(root, local), 0)
		if got != want || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Errorf("%s: resolveIn = %q, %v; resolve = %q, %v", p, got, gotErr, want, wantErr)
		}
	}
}
