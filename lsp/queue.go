package lsp

import (
	"context"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
)

// ordered is jsonrpc2.AsyncHandler with a way out: messages are handled
// one at a time, in arrival order (didChange notifications must apply in
// order), each starting once the one before has replied — or has called
// releaseQueue. A handler that waits on the client (workspace/applyEdit)
// releases the queue first, so that a client that never answers cannot
// stall every later message (gopls does the same with jsonrpc2.Async).
func ordered(next jsonrpc2.Handler) jsonrpc2.Handler {
	nextRequest := make(chan struct{})
	close(nextRequest)
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		waitForPrevious := nextRequest
		nextRequest = make(chan struct{})
		var once sync.Once
		unlockNext := nextRequest
		release := func() { once.Do(func() { close(unlockNext) }) }
		innerReply := reply
		reply = func(ctx context.Context, result any, err error) error {
			release()
			return innerReply(ctx, result, err)
		}
		ctx = context.WithValue(ctx, releaseKey{}, release)
		go func() {
			<-waitForPrevious
			_ = next(ctx, reply, req)
		}()
		return nil
	}
}

type releaseKey struct{}

// releaseQueue lets the next message start before this one replies. The
// handler must not touch the server's state afterwards except through
// snapshots and locks.
func releaseQueue(ctx context.Context) {
	if f, ok := ctx.Value(releaseKey{}).(func()); ok {
		f()
	}
}

// testHook, when set by the package's tests (export_test.go), runs inside
// each handler, under the panic guard, before the method is served: tests
// use it to hold the queue or to panic. No flag or variable sets it in a
// build.
var testHook atomic.Pointer[func(ctx context.Context, method string)]
