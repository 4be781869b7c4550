// Package testenv holds what tests share about the machine they run on:
// how long to wait on it (Timeout), a git repository in its temporary
// folder (GitRepo), and a binary that pauses inside a commit for a signal
// (BuildPaused, WaitPaused). Only tests import it.
package testenv

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// ScaleVar names the environment variable that multiplies every test
// timeout Timeout gives; DefaultScale is the multiplier without it.
const (
	ScaleVar     = "FSRB_TEST_TIMEOUT_SCALE"
	DefaultScale = 5
)

// Timeout is how long a test waits for what takes well under d on a quiet
// machine, before it fails. A loaded CI machine is slower by more than any
// fixed margin, so d is multiplied by the scale (ScaleVar, DefaultScale),
// then cut to nine tenths of the time the test binary has left (go test
// -timeout), so that a wait that never ends fails with the test's own
// message, not with the binary's panic.
func Timeout(t testing.TB, d time.Duration) time.Duration {
	scale := float64(DefaultScale)
	if v, err := strconv.ParseFloat(os.Getenv(ScaleVar), 64); err == nil && v > 0 {
		scale = v
	}
	d = time.Duration(float64(d) * scale)
	if dt, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if end, ok := dt.Deadline(); ok {
			d = min(d, time.Until(end)*9/10)
		}
	}
	return d
}
