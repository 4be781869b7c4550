package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// withPath is the environment with PATH set to dirs alone.
func withPath(dirs ...string) []string {
	env := []string{"PATH=" + strings.Join(dirs, string(os.PathListSeparator))}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	return env
}

// "fsrb mcp" without fsrb-mcp installed names what to install.
func TestMCPWithoutItsBinary(t *testing.T) {
	code, stdout, stderr := runIn(t, t.TempDir(), withPath(t.TempDir()), "mcp", "--root", ".")
	if code != exitFail || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	for _, want := range []string{"fsrb-mcp", "beside fsrb", "nor on PATH", "make install", "go install github.com/fsrb/fsrb/cmd/fsrb-mcp@latest"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

// "fsrb mcp ARGS" becomes fsrb-mcp ARGS: the one beside fsrb first, then
// the one on PATH.
func TestMCPRunsItsBinary(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the stand-ins are shell scripts")
	}
	fake := func(dir, name string) {
		t.Helper()
		script := "#!/bin/sh\necho " + name + " \"$@\"\nexit 3\n"
		if err := os.WriteFile(filepath.Join(dir, "fsrb-mcp"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	onPath := t.TempDir()
	fake(onPath, "on-path")
	code, stdout, _ := runIn(t, t.TempDir(), withPath(onPath), "mcp", "--root", "x y")
	if code != 3 || stdout != "on-path --root x y\n" {
		t.Errorf("from PATH: exit %d, stdout %q", code, stdout)
	}

	// A copy of fsrb with a stand-in beside it.
	bin := t.TempDir()
	data, err := os.ReadFile(fsrbBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "fsrb"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	fake(bin, "beside")
	cmd := exec.Command(filepath.Join(bin, "fsrb"), "mcp", "-h")
	cmd.Env = withPath(onPath)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 || string(out) != "beside -h\n" {
		t.Errorf("beside fsrb: %v, stdout %q", err, out)
	}
}
