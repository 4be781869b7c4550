// Package rpc is the language server's transport: JSON-RPC 2.0 over
// "Content-Length" frames (framing.go), one message at a time in arrival
// order (order.go), $/cancelRequest (cancel.go), and a guard that logs each
// call, turns a panic into an error reply and gives every error a code
// (guard.go). It knows JSON-RPC and LSP's wire conventions, not fsrb: the
// lifecycle gate and the method dispatch are the server's (package lsp),
// which hands Serve one jsonrpc2.Handler.
//
// It is built on go.lsp.dev/jsonrpc2 v1, which does the request/response
// bookkeeping; what this package adds, each with its reason:
//
//   - framing: jsonrpc2's stream ends the connection at the first frame it
//     cannot read; this one answers a malformed message and goes on, and
//     tells when a reply has been written (Conn.WaitReplies);
//   - ordering: protocol.NewServer runs handlers concurrently, in no
//     order, and didChange notifications must apply in order;
//   - cancellation: protocol.CancelHandler answers a $/cancelRequest whose
//     id it cannot read with an error, which for a notification closes the
//     connection; a bad cancel must be ignored;
//   - errors: jsonrpc2 sends a plain Go error with code 0, and
//     protocol.ServerHandler reports params that do not decode as a
//     ParseError (-32700) where JSON-RPC wants InvalidParams (-32602);
//     jsonrpc2 answers a panicking handler but then closes the connection;
//   - codec: the conn is built by hand, and protocol's union-aware codec
//     is unexported.
package rpc

import (
	"context"
	"io"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// Options configures a connection.
type Options struct {
	// Logger receives the transport's logs (one line per call, malformed
	// messages, panics); nil discards them.
	Logger *zap.Logger
}

// Conn is one JSON-RPC connection: New builds it, Serve starts reading.
type Conn struct {
	conn     jsonrpc2.Conn
	log      *zap.Logger
	replying atomic.Int32 // requests read and not yet answered on the wire
}

// New makes a connection over rwc (stdio in the editor, a pipe in tests).
// Nothing is read before Serve: the server can take Peer first to talk to
// the client.
func New(rwc io.ReadWriteCloser, opt Options) *Conn {
	if opt.Logger == nil {
		opt.Logger = zap.NewNop()
	}
	c := &Conn{log: opt.Logger}
	c.conn = jsonrpc2.NewConn(newFramer(rwc, opt.Logger, func() { c.replying.Add(-1) }), jsonrpc2.WithCodec(codec{}))
	return c
}

// Serve starts reading messages and returns at once. Each goes, outermost
// first, through:
//
//   - cancellation (cancel.go): $/cancelRequest is answered at once, in
//     the read loop, so a request still queued or running can be
//     cancelled; a cancelled request answers RequestCancelled;
//   - ordering (order.go): one handler at a time, in arrival order; a
//     handler waiting on the client lets the next start (Release); a
//     didChange with nothing before it running runs in the read loop;
//   - the guard (guard.go): logs, panic recovery, an error code on every
//     error, no error reply for a notification;
//   - h, the server's own handler. Its return value is the reply, so there
//     is exactly one.
func (c *Conn) Serve(ctx context.Context, h jsonrpc2.Handler) {
	c.conn.Go(ctx, c.cancellable(ordered(c.guard(h))))
}

// Peer is the connection as the server's side of calls and notifications
// to the client (protocol.ClientDispatcher).
func (c *Conn) Peer() jsonrpc2.Conn { return c.conn }

// Done is closed when the connection ends.
func (c *Conn) Done() <-chan struct{} { return c.conn.Done() }

// Close closes the connection.
func (c *Conn) Close() error { return c.conn.Close() }

// WaitReplies waits until every request read so far has its reply written,
// or timeout has passed. jsonrpc2 writes a reply after its handler
// returns: an exit notification must not end the process before the
// shutdown reply is out.
func (c *Conn) WaitReplies(timeout time.Duration) {
	for deadline := time.Now().Add(timeout); c.replying.Load() > 0 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
}

// codec is protocol's payload codec for a conn built by hand.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if m, ok := v.(jsonrpc2.RawMessage); ok {
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}
