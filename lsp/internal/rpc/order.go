package rpc

import (
	"context"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// ordered runs messages one at a time, in arrival order (didChange
// notifications must apply in order), each starting once the one before
// has returned — or has called Release. jsonrpc2 runs a handler in
// its read loop until it calls jsonrpc2.Async, and AsyncHandler (which
// protocol.NewServer installs) then runs them all at once, in no order:
// so each message is released from the read loop at once (a
// $/cancelRequest behind it is read while it waits) and waits its turn
// here. A handler that waits on the client (workspace/applyEdit) releases
// the queue first, so that a client that never answers cannot stall every
// later message (gopls does the same with jsonrpc2.Async).
func ordered(next jsonrpc2.Handler) jsonrpc2.Handler {
	nextRequest := make(chan struct{})
	close(nextRequest)
	// The read loop calls this for one message at a time, in order, until
	// jsonrpc2.Async hands the loop to the next message's goroutine.
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		waitForPrevious := nextRequest
		nextRequest = make(chan struct{})
		var once sync.Once
		unlockNext := nextRequest
		release := func() { once.Do(func() { close(unlockNext) }) }
		defer release()
		if inline[req.Method()] && !req.IsCall() && closed(waitForPrevious) {
			return next(context.WithValue(ctx, releaseKey{}, release), req)
		}
		jsonrpc2.Async(ctx) // the request stays valid: Async copies it
		<-waitForPrevious
		return next(context.WithValue(ctx, releaseKey{}, release), req)
	}
}

// inline holds the notifications that run in the read loop itself when no
// message before them is still running: each only changes the server's
// state and schedules work, and never waits on the client (a reply it
// waits for could not be read). Released from the loop, each would cost
// a new reader goroutine and its stack's growth, a hand-off between
// threads, per keystroke or per chunk of a streamed answer (W8 of make
// bench).
var inline = map[string]bool{protocol.MethodTextDocumentDidChange: true}

func closed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

type releaseKey struct{}

// Release lets the next message start before this one replies: a handler
// that waits on the client calls it first. The handler must not touch the
// server's state afterwards except through snapshots and locks. Outside a
// handler it does nothing.
func Release(ctx context.Context) {
	if f, ok := ctx.Value(releaseKey{}).(func()); ok {
		f()
	}
}
