package lsp

import (
	"context"
	"testing"
)

// SetTestHook runs f inside every handler, under the panic guard, before
// the method is served, for the rest of the test (handler.go).
func SetTestHook(t testing.TB, f func(ctx context.Context, method string)) {
	t.Helper()
	testHook.Store(&f)
	t.Cleanup(func() { testHook.Store(nil) })
}

// LensEvery is the shortest time between two codeLens/refresh requests.
const LensEvery = lensEvery
