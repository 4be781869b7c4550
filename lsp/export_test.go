package lsp

import (
	"context"
	"testing"

	"go.lsp.dev/uri"
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

// Asked is how many refresh requests of method (workspace/codeLens/refresh,
// workspace/diagnostic/refresh, workspace/inlayHint/refresh) the session
// sent so far, arrived or not. Diagnostics runs, one at a time, decide
// theirs before they return: once a later run's diagnostics arrived, what
// the runs before it asked for is counted.
func (s *Session) Asked(method string) int64 { return s.srv.diag.asked[method].Load() }

// CheckedAlone reports whether the session keeps a check of block n of
// u on its own, as the "Apply" lens asks for it (lens.go).
func (s *Session) CheckedAlone(u uri.URI, n int) bool {
	s.srv.mu.Lock()
	prior := s.srv.snap.prior
	s.srv.mu.Unlock()
	_, ok := prior.checkedAlone(u, n)
	return ok
}
