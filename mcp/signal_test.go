//go:build unix

package mcp_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/internal/testenv"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// SIGTERM while an apply is being committed: the server rolls the commit
// back before it exits, leaving every file old, no temporary file and no
// pending journal. The fsrb-mcp run here pauses at the first rename
// until it is stopped (-tags fsrb_pause, core/commit/failpoint_pause.go),
// so that the signal lands inside the commit.
func TestSignalDuringApply(t *testing.T) {
	bin := testenv.BuildPaused(t, "../cmd/fsrb-mcp")
	root, state, pause := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "paused")
	for _, name := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, "--root", root)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state, "FSRB_PAUSE_AT=rename:", "FSRB_PAUSE_FILE="+pause)
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Timeout(t, 30*time.Second))
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "fsrb-test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	called := make(chan error, 1)
	go func() {
		patch := "a.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\nb.txt\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "apply", Arguments: map[string]any{"patch": patch}})
		called <- err
	}()
	if ended, err := testenv.WaitPaused(t, pause, called); ended {
		t.Fatalf("the apply ended (%v) before its first rename", err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	cs.Close() // waits for the process to exit
	for _, name := range []string{"a.txt", "b.txt"} {
		if data, _ := os.ReadFile(filepath.Join(root, name)); string(data) != "old\n" {
			t.Errorf("%s holds %q after the signal, want the old content", name, data)
		}
	}
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".fsrb-tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
	if p, err := commit.Pending(root, commit.Options{StateDir: filepath.Join(state, "fsrb")}); p || err != nil {
		t.Errorf("a journal is pending (%v): the server exited in the middle of the commit", err)
	}
}
