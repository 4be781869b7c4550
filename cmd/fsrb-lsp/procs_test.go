package main

import (
	"os"
	"runtime"
	"testing"
)

// TestOneThread: one processor unless the environment chose a number.
func TestOneThread(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	t.Setenv("GOMAXPROCS", "2")
	runtime.GOMAXPROCS(2)
	oneThread()
	if n := runtime.GOMAXPROCS(0); n != 2 {
		t.Errorf("with GOMAXPROCS=2 set, oneThread left %d processors", n)
	}
	os.Unsetenv("GOMAXPROCS") // t.Setenv restores it
	oneThread()
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Errorf("with GOMAXPROCS unset, oneThread left %d processors", n)
	}
}
