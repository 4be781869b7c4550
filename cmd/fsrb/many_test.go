package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// manyFiles writes 20 files of 10 functions each and a patch with one block
// per function (200 blocks), returning the root, the patch and the expected
// new content of each file.
func manyFiles(t *testing.T, broken int) (root, patch string, want map[string]string) {
	root = t.TempDir()
	want = map[string]string{}
	var p strings.Builder
	n := 0
	for f := range 20 {
		name := fmt.Sprintf("pkg%02d/file.go", f)
		var before, after strings.Builder
		before.WriteString("package pkg\n")
		after.WriteString("package pkg\n")
		for fn := range 10 {
			n++
			body := fmt.Sprintf("\nfunc F%d_%d() int {\n\treturn %d\n}\n", f, fn, fn)
			before.WriteString(body)
			after.WriteString(strings.Replace(body, fmt.Sprintf("return %d", fn), fmt.Sprintf("return %d + 1", fn), 1))
			search := fmt.Sprintf("func F%d_%d() int {\n\treturn %d\n", f, fn, fn)
			if n == broken {
				search = strings.Replace(search, "return", "retrun", 1)
			}
			fmt.Fprintf(&p, "%s\n<<<<<<< SEARCH\n%s=======\nfunc F%d_%d() int {\n\treturn %d + 1\n>>>>>>> REPLACE\n\n", name, search, f, fn, fn)
		}
		full := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(before.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		want[name] = after.String()
	}
	patchFile := filepath.Join(t.TempDir(), "many.fsrb")
	os.WriteFile(patchFile, []byte(p.String()), 0o644)
	return root, patchFile, want
}

func snapshot(t *testing.T, root string) map[string]string {
	out := map[string]string{}
	for k, v := range tree(t, root) {
		out[k] = v
	}
	return out
}

func runCLI(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	return runIn(t, dir, append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1"), args...)
}

func TestTwentyFilesTenBlocks(t *testing.T) {
	root, patch, want := manyFiles(t, 0)
	code, stdout, stderr := runCLI(t, root, patch)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.HasSuffix(stdout, "[SUCCESS] All 200 blocks applied to 20 files.\n") {
		t.Errorf("stdout ends %q", stdout[max(0, len(stdout)-80):])
	}
	got := snapshot(t, root)
	for name, content := range want {
		if got[name] != content {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got[name], content)
		}
	}
}

func TestOneFailingBlockWritesNothing(t *testing.T) {
	for _, broken := range []int{1, 137, 200} {
		t.Run(fmt.Sprint(broken), func(t *testing.T) {
			root, patch, _ := manyFiles(t, broken)
			before := snapshot(t, root)
			code, _, stderr := runCLI(t, root, patch)
			if code != 1 {
				t.Fatalf("exit %d, want 1", code)
			}
			if !strings.Contains(stderr, fmt.Sprintf("  - Block #%d: SEARCH block not found in file content.", broken)) {
				t.Errorf("stderr does not name block #%d:\n%s", broken, stderr)
			}
			if n := strings.Count(stderr, "  - Block #"); n != 1 {
				t.Errorf("%d problems reported, want 1", n)
			}
			after := snapshot(t, root)
			for name, content := range before {
				if after[name] != content {
					t.Errorf("%s changed", name)
				}
			}
		})
	}
}
