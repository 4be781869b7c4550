//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// exitBy ends the process as killed by sig, its default action, once
// fsrb has cleaned up and reported: the parent sees the signal, not an
// exit status (a shell stops its script on Ctrl-C only then).
func exitBy(sig os.Signal) {
	s, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	signal.Reset(s)
	if syscall.Kill(os.Getpid(), s) != nil {
		return
	}
	// The signal goes to the process, and another of its threads may take
	// it a moment later: wait for it rather than exit first. main exits
	// with signalCode's status if it never comes.
	time.Sleep(time.Second)
}
