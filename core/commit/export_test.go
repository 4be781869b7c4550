package commit

import "testing"

// ErrCrash makes a failpoint stop a transaction dead, as a SIGKILL would.
var ErrCrash = errCrash

// SetKeepBytes bounds the bytes of the journals kept for the rest of the
// test.
func SetKeepBytes(t testing.TB, n int64) {
	old := keepBytes
	keepBytes = n
	t.Cleanup(func() { keepBytes = old })
}

// KeepCommitted is how many committed commits a root keeps journals of.
const KeepCommitted = keepCommitted

// SetFailpoint installs f for the rest of the test.
func SetFailpoint(t testing.TB, f func(step string) error) {
	t.Helper()
	failpoint = f
	t.Cleanup(func() { failpoint = nil })
}
