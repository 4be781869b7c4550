package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// handler is the chain every message goes through, outermost first:
//
//   - cancellable: answers $/cancelRequest at once, in the read loop, so a
//     request still queued or running can be cancelled (wire.go: the
//     library never cancels numeric ids);
//   - ordered (queue.go): one handler at a time, in arrival order, so
//     didChange notifications apply in order; a handler waiting on the
//     client releases the queue (releaseQueue);
//   - guard: logs each call, turns panics into JSON-RPC errors and makes
//     sure every request is replied to exactly once (a missing reply would
//     stall every message behind it);
//   - gate: the LSP lifecycle and unknown methods;
//   - dispatch: our own decoding for the methods whose library types are
//     wrong (wire.go), protocol.ServerHandler for the rest.
func (s *Server) handler() jsonrpc2.Handler {
	return s.cancellable(ordered(s.guard(s.gate(s.dispatch))))
}

func (s *Server) cancellable(next jsonrpc2.Handler) jsonrpc2.Handler {
	var mu sync.Mutex
	running := map[jsonrpc2.ID]context.CancelFunc{}
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
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
			return reply(ctx, nil, nil)
		}
		call, ok := req.(*jsonrpc2.Call)
		if !ok {
			return next(ctx, reply, req)
		}
		id := call.ID()
		ctx, cancel := context.WithCancel(ctx)
		mu.Lock()
		running[id] = cancel
		mu.Unlock()
		return next(ctx, func(rctx context.Context, result any, err error) error {
			mu.Lock()
			delete(running, id)
			mu.Unlock()
			if ctx.Err() != nil {
				result, err = nil, jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
			}
			cancel()
			return reply(rctx, result, err)
		}, req)
	}
}

func (s *Server) guard(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		start := time.Now()
		var replied atomic.Bool
		s.replying.Add(1)
		logged := func(rctx context.Context, result any, err error) error {
			if !replied.CompareAndSwap(false, true) {
				s.log.Error("second reply dropped", zap.String("method", req.Method()))
				return nil
			}
			defer s.replying.Add(-1)
			err = rpcError(err)
			fields := []zap.Field{zap.String("method", req.Method()), zap.Duration("took", time.Since(start))}
			if call, ok := req.(*jsonrpc2.Call); ok {
				fields = append(fields, zap.String("id", fmt.Sprintf("%v", call.ID())))
			}
			if err != nil {
				s.log.Info("reply", append(fields, zap.Error(err))...)
			} else {
				s.log.Debug("reply", fields...)
			}
			// A cancelled request is still answered: the stream refuses to
			// write under a cancelled context.
			return reply(context.WithoutCancel(rctx), result, err)
		}
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("panic", zap.String("method", req.Method()), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
				if !replied.Load() {
					_ = logged(ctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("fsrb: internal error in %s: %v", req.Method(), p)))
				}
				return
			}
			if !replied.Load() {
				s.log.Error("handler did not reply", zap.String("method", req.Method()))
				_ = logged(ctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, "fsrb: no reply"))
			}
		}()
		if hook := testHook.Load(); hook != nil {
			(*hook)(ctx, req.Method())
		}
		return next(ctx, logged, req)
	}
}

func (s *Server) gate(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		_, isCall := req.(*jsonrpc2.Call)
		method := req.Method()
		state := s.lifecycle()
		switch {
		case method == protocol.MethodExit:
			// AsyncHandler starts the next handler before the previous reply
			// is written: let the replies under way (shutdown's) reach the
			// client before the process ends.
			go func() {
				for deadline := time.Now().Add(time.Second); s.replying.Load() > 0 && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
				s.signalExit()
			}()
			return reply(ctx, nil, nil)
		case state == stateNew && method != protocol.MethodInitialize:
			if isCall {
				return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "fsrb: the server is not initialized yet"))
			}
			return reply(ctx, nil, nil)
		case state != stateNew && method == protocol.MethodInitialize:
			return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "fsrb: initialize was already called"))
		case state == stateShutdown:
			if isCall {
				return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "fsrb: the server is shutting down"))
			}
			return reply(ctx, nil, nil)
		}
		if !served[method] {
			if isCall {
				return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("fsrb: method %q is not supported", method)))
			}
			s.log.Debug("notification ignored", zap.String("method", method))
			return reply(ctx, nil, nil)
		}
		return next(ctx, reply, req)
	}
}

// served lists every method the server answers; everything else is
// MethodNotFound (requests) or ignored (notifications). unimplemented.go
// keeps the protocol.Server methods that are not here.
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
}

// intercepted methods are decoded with our own types (wire.go) instead of
// the library's.
func (s *Server) dispatch(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case protocol.MethodTextDocumentDidChange:
		var params didChangeParams
		if err := decode(req, &params); err != nil {
			return reply(ctx, nil, err)
		}
		return reply(ctx, nil, s.didChange(ctx, &params))
	case protocol.MethodTextDocumentCodeAction:
		var params protocol.CodeActionParams
		if err := decode(req, &params); err != nil {
			return reply(ctx, nil, err)
		}
		actions, err := s.codeAction(ctx, &params)
		return reply(ctx, actions, err)
	}
	return s.route(ctx, reply, req)
}

func decode(req jsonrpc2.Request, v any) error {
	if err := json.Unmarshal(req.Params(), v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("fsrb: bad %s params: %v", req.Method(), err))
	}
	return nil
}
