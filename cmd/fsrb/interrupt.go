package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals are the signals that stop fsrb while it may write: Ctrl-C,
// a polite kill, the terminal going away. SIGKILL cannot be caught: a
// commit it cuts off is rolled back by `fsrb --recover`.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// interrupts turns the stop signals into a closed channel for the
// commit (pipeline.Options.Stop), which then rolls back unless it has
// reached its commit point, and remembers which signal came. While they
// are caught, a signal never kills fsrb half way through a commit.
type interrupts struct {
	ch   chan os.Signal
	stop chan struct{}
	done chan struct{}
	sig  os.Signal // set before done is closed
}

func catchInterrupts() *interrupts {
	in := &interrupts{ch: make(chan os.Signal, 1), stop: make(chan struct{}), done: make(chan struct{})}
	signal.Notify(in.ch, caughtSignals()...)
	go func() {
		defer close(in.done)
		if s, ok := <-in.ch; ok {
			in.sig = s
			close(in.stop)
			// Later signals, a second Ctrl-C among them, are caught and
			// dropped until release: the rollback finishes.
			for range in.ch {
			}
		}
	}()
	return in
}

// caughtSignals are the stop signals fsrb was not started ignoring. A
// signal ignored at the start stays ignored, as whoever started fsrb
// asked: nohup ignores SIGHUP so that the run outlives its terminal, and
// a shell ignores SIGINT for a job in the background. Catching it would
// undo that (signal.Notify stops ignoring it), and the run would stop.
func caughtSignals() []os.Signal {
	var out []os.Signal
	for _, s := range stopSignals {
		if !signal.Ignored(s) {
			out = append(out, s)
		}
	}
	return out
}

// stopped is the channel closed on a stop signal; nil (never closed) when
// no signal is caught.
func (in *interrupts) stopped() <-chan struct{} {
	if in == nil {
		return nil
	}
	return in.stop
}

// release stops catching and returns the first signal that came, or nil
// (always nil when in is nil: nothing was caught). A signal after release
// has its default effect.
func (in *interrupts) release() os.Signal {
	if in == nil {
		return nil
	}
	signal.Stop(in.ch)
	close(in.ch)
	<-in.done
	return in.sig
}

// interruptNote says what a stop signal did to the run: written tells
// whether the commit (or the undo) went through.
func interruptNote(w io.Writer, sig os.Signal, written bool) {
	if written {
		fmt.Fprintf(w, "fsrb: %s came after the commit point: the change was finished, every file holds it.\n", signalName(sig))
		return
	}
	fmt.Fprintf(w, "fsrb: stopped by %s; no file changed, and no temporary file is left.\n", signalName(sig))
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT (Ctrl-C)"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return sig.String()
}

// signalCode is the exit status of a process killed by sig, as a shell
// reports it: 128 + its number.
func signalCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return exitFail
}

// caught is the stop signal a run received, for main: having reported,
// fsrb dies of it (exitBy), so that a shell loop or make running fsrb
// stops too.
var caught os.Signal
