package commit

import "testing"

// ErrCrash makes a failpoint stop a transaction dead, as a SIGKILL would.
var ErrCrash = errCrash

// SetFailpoint installs f for the rest of the test.
func SetFailpoint(t testing.TB, f func(step string) error) {
	t.Helper()
	failpoint = f
	t.Cleanup(func() { failpoint = nil })
}
