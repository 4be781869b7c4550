//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package commit_test

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

// A fifo must be refused without being opened: opening one for reading
// blocks until a writer comes, which would hang fsrb.
func TestDiskReadFileFifo(t *testing.T) {
	root, _ := workspace(t)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skip("no fifos here:", err)
	}
	d, err := commit.NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := d.ReadFile("pipe")
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, core.ErrNotRegular) {
			t.Errorf("ReadFile(fifo): %v, want core.ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ReadFile(fifo) blocked")
	}
}
