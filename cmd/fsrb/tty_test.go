//go:build unix

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// The terminal manners: what fsrb does differently when a person, not a
// program, is at the other end. Each test gives fsrb a pseudo-terminal.

// onTerminal runs fsrb in dir with the named streams ("stdin", "stdout")
// on a pseudo-terminal and the others on pipes; input is typed at the
// terminal (or fed to the stdin pipe). It returns what the terminal
// showed (its "\r\n" as "\n") and stdout and stderr when piped.
func onTerminal(t *testing.T, dir string, env []string, onTTY map[string]bool, input string, args ...string) (code int, screen, stdout, stderr string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptmx.Close()
	cmd := exec.Command(fsrbBin, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errs bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(input), &out, &errs
	if onTTY["stdin"] {
		cmd.Stdin = tty
	}
	if onTTY["stdout"] {
		cmd.Stdout = tty
	}
	shown := make(chan string)
	go func() {
		data, _ := io.ReadAll(ptmx) // ends with EIO once the last holder of tty closes it
		shown <- strings.ReplaceAll(string(data), "\r\n", "\n")
	}()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	if onTTY["stdin"] {
		// Typed lines, then Ctrl-D at the start of a line: end of input.
		io.WriteString(ptmx, strings.ReplaceAll(input, "\n", "\r")+"\x04")
	}
	err = cmd.Wait()
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatal(err)
	}
	return code, <-shown, out.String(), errs.String()
}

// env is the test's environment without NO_COLOR, plus extra.
func env(t *testing.T, extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "NO_COLOR=") {
			out = append(out, kv)
		}
	}
	return append(append(out, "XDG_STATE_HOME="+t.TempDir()), extra...)
}

// --diff is coloured as git diff colours it, on a terminal only, and
// never with NO_COLOR set.
func TestDiffColourOnATerminal(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	patch := writePatch(t, twoFiles)
	_, screen, _, _ := onTerminal(t, root, env(t), map[string]bool{"stdout": true}, "", "--diff", "--dry-run", patch)
	for _, want := range []string{
		"\x1b[1m--- a/a.txt\x1b[m\n\x1b[1m+++ b/a.txt\x1b[m\n\x1b[36m@@ -1 +1 @@\x1b[m\n\x1b[31m-alpha\x1b[m\n\x1b[32m+ALPHA\x1b[m\n",
		"\x1b[31m-beta\x1b[m\n\x1b[32m+BETA\x1b[m\n",
		"\x1b[33m[DRY RUN]\x1b[0m",
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("the terminal shows no %q:\n%q", want, screen)
		}
	}
	_, screen, _, _ = onTerminal(t, root, env(t, "NO_COLOR=1"), map[string]bool{"stdout": true}, "", "--diff", "--dry-run", patch)
	if strings.Contains(screen, "\x1b[") || !strings.Contains(screen, "-alpha\n+ALPHA\n") {
		t.Errorf("NO_COLOR: the terminal shows %q", screen)
	}
	_, _, stdout, _ := onTerminal(t, root, env(t), nil, "", "--diff", "--dry-run", patch)
	if strings.Contains(stdout, "\x1b[") || !strings.Contains(stdout, "-alpha\n+ALPHA\n") {
		t.Errorf("piped: stdout %q", stdout)
	}
}

// "fsrb -" on a terminal says what it waits for and how to end it;
// fed by a pipe or a file, it says nothing.
func TestStdinHintOnATerminal(t *testing.T) {
	root := workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	hint := "fsrb: reading a patch from standard input; end it with Ctrl-D.\n"
	code, _, _, stderr := onTerminal(t, root, env(t), map[string]bool{"stdin": true}, twoFiles, "-")
	if code != 0 || stderr != hint {
		t.Errorf("terminal: exit %d, stderr %q, want %q", code, stderr, hint)
	}
	if got := readFile(t, root+"/a.txt"); got != "ALPHA\n" {
		t.Errorf("the patch typed at the terminal was not applied: a.txt = %q", got)
	}

	root = workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	code, _, _, stderr = onTerminal(t, root, env(t), nil, twoFiles, "-")
	if code != 0 || stderr != "" {
		t.Errorf("pipe: exit %d, stderr %q", code, stderr)
	}
	f, err := os.Open(writePatch(t, twoFiles))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	root = workspace(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	cmd := exec.Command(fsrbBin, "-")
	cmd.Dir, cmd.Env, cmd.Stdin = root, env(t), f
	var errs bytes.Buffer
	cmd.Stderr = &errs
	if err := cmd.Run(); err != nil || errs.Len() > 0 {
		t.Errorf("file: %v, stderr %q", err, errs.String())
	}
}
