package commit

import "errors"

// failpoint lets tests fail a transaction at any step. It is nil in
// production and no flag or environment variable sets it: only the
// package's own tests do (export_test.go).
//
// It is called after each step has happened, so an injected error leaves
// that step's effect on disk for the rollback to undo: the hardest case.
var failpoint func(step string) error

// errCrash, returned by a failpoint, stops the transaction where it stands,
// without rollback and with the journal still "pending", as a SIGKILL or a
// power cut would. Only a test's failpoint can produce it.
var errCrash = errors.New("simulated crash")

// hit reports a step to the failpoint. Step names are "op:path", e.g.
// "rename:src/app.py" or "journal:manifest".
func hit(op, path string) error {
	if failpoint == nil {
		return nil
	}
	return failpoint(op + ":" + path)
}

// watchStop, when set, is given each transaction's Options.Stop before
// its first step: a test's failpoint that pauses at a step until the
// transaction is stopped (failpoint_pause.go) waits on it.
var watchStop func(stop <-chan struct{})
