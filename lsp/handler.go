package lsp

import (
	"context"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// handler is the chain every message goes through, outermost first:
//
//   - cancellable: answers $/cancelRequest at once, in the read loop, so a
//     request still queued or running can be cancelled (wire.go: a cancel
//     the library cannot read would close the connection);
//   - ordered (queue.go): one handler at a time, in arrival order, so
//     didChange notifications apply in order; a handler waiting on the
//     client releases the queue (releaseQueue);
//   - guard: logs each call, turns panics into JSON-RPC errors (jsonrpc2
//     answers a panicking handler too, but then closes the connection) and
//     gives every error a code; the reply itself is the handler's return
//     value, so there is exactly one;
//   - gate: the LSP lifecycle and unknown methods;
//   - protocol.ServerHandler over the Server.
func (s *Server) handler() jsonrpc2.Handler {
	return s.cancellable(ordered(s.guard(s.gate(s.route))))
}

func (s *Server) cancellable(next jsonrpc2.Handler) jsonrpc2.Handler {
	var mu sync.Mutex
	running := map[jsonrpc2.ID]context.CancelFunc{}
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodCancelRequest {
			if id, ok := cancelID(req.Params()); ok {
				mu.Lock()
				cancel := running[id]
				mu.Unlock()
				if cancel != nil {
					s.log.Debug("cancel", zap.String("id", fmt.Sprintf("%v", id)))
					cancel()
				}
			}
			return nil, nil
		}
		if !req.IsCall() {
			return next(ctx, req)
		}
		id := req.ID()
		ctx, cancel := context.WithCancel(ctx)
		mu.Lock()
		running[id] = cancel
		mu.Unlock()
		defer func() {
			mu.Lock()
			delete(running, id)
			mu.Unlock()
			cancel()
		}()
		result, err := next(ctx, req)
		if ctx.Err() != nil {
			return nil, jsonrpc2.NewError(protocol.CodeRequestCancelled, "request cancelled")
		}
		return result, err
	}
}

func (s *Server) guard(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		start := time.Now()
		method := req.Method()
		if req.IsCall() {
			s.replying.Add(1) // until the stream writes the reply
		}
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("panic", zap.String("method", method), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
				result, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("fsrb: internal error in %s: %v", method, p))
			}
			err = rpcError(err)
			if !req.IsCall() {
				if err != nil {
					// A notification has no one to answer, and an error
					// returned for it would close the connection.
					s.log.Info("notification failed", zap.String("method", method), zap.Error(err))
				}
				result, err = nil, nil
				return
			}
			fields := []zap.Field{zap.String("method", method), zap.Duration("took", time.Since(start)), zap.String("id", fmt.Sprintf("%v", req.ID()))}
			if err != nil {
				s.log.Info("reply", append(fields, zap.Error(err))...)
			} else {
				s.log.Debug("reply", fields...)
			}
		}()
		if hook := testHook.Load(); hook != nil {
			(*hook)(ctx, method)
		}
		return next(ctx, req)
	}
}

func (s *Server) gate(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		isCall := req.IsCall()
		method := req.Method()
		state := s.lifecycle()
		switch {
		case method == protocol.MethodExit:
			// The handlers started before this one returned before it ran
			// (queue.go); let their replies (shutdown's), written once they
			// returned, reach the client before the process ends.
			go func() {
				for deadline := time.Now().Add(time.Second); s.replying.Load() > 0 && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
				s.signalExit()
			}()
			return nil, nil
		case state == stateNew && method != protocol.MethodInitialize:
			if isCall {
				return nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "fsrb: the server is not initialized yet")
			}
			return nil, nil
		case state != stateNew && method == protocol.MethodInitialize:
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "fsrb: initialize was already called")
		case state == stateShutdown:
			if isCall {
				return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "fsrb: the server is shutting down")
			}
			return nil, nil
		}
		if !served[method] {
			if isCall {
				return nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("fsrb: method %q is not supported", method))
			}
			s.log.Debug("notification ignored", zap.String("method", method))
			return nil, nil
		}
		return next(ctx, req)
	}
}

// served lists every method the server answers; everything else is
// MethodNotFound (requests) or ignored (notifications), before
// protocol.UnimplementedServer, which Server embeds, would see them.
var served = map[string]bool{
	protocol.MethodInitialize:                      true,
	protocol.MethodInitialized:                     true,
	protocol.MethodShutdown:                        true,
	protocol.MethodTextDocumentDidOpen:             true,
	protocol.MethodTextDocumentDidChange:           true,
	protocol.MethodTextDocumentDidClose:            true,
	protocol.MethodTextDocumentDidSave:             true,
	protocol.MethodWorkspaceDidChangeWatchedFiles:  true,
	protocol.MethodWorkspaceDidChangeConfiguration: true,
	protocol.MethodTextDocumentCodeAction:          true,
	protocol.MethodWorkspaceExecuteCommand:         true,
	protocol.MethodTextDocumentCodeLens:            true,
	protocol.MethodTextDocumentHover:               true,
	protocol.MethodTextDocumentDefinition:          true,
	protocol.MethodTextDocumentDocumentLink:        true,
	protocol.MethodTextDocumentDocumentSymbol:      true,
	protocol.MethodTextDocumentFoldingRange:        true,
	protocol.MethodTextDocumentDiagnostic:          true,
	protocol.MethodTextDocumentInlayHint:           true,
}
