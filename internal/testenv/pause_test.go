package testenv

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWaitPaused(t *testing.T) {
	file := filepath.Join(t.TempDir(), "paused")
	gone := errors.New("exit status 1")
	ended := make(chan error, 1)
	ended <- gone
	if stopped, err := WaitPaused(t, file, ended); !stopped || err != gone {
		t.Errorf("the process ended first: %v, %v; want true, %v", stopped, err, gone)
	}
	if err := os.WriteFile(file, []byte("rename:a.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	if stopped, err := WaitPaused(t, file, make(chan error)); stopped || err != nil {
		t.Errorf("the pause file is there: %v, %v; want false, nil", stopped, err)
	}
}
