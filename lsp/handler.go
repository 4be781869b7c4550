package lsp

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// handler is what the transport (internal/rpc: cancellation, ordering,
// logging and panic recovery, error codes) hands each message to:
//
//   - testHook, when the package's tests set one (export_test.go), under
//     the transport's panic guard;
//   - gate: the LSP lifecycle and unknown methods;
//   - protocol.ServerHandler over the Server.
func (s *Server) handler() jsonrpc2.Handler {
	gate := s.gate(s.route)
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if hook := testHook.Load(); hook != nil {
			(*hook)(ctx, req.Method())
		}
		return gate(ctx, req)
	}
}

// testHook, when set by the package's tests (export_test.go), runs inside
// each handler, under the panic guard, before the method is served: tests
// use it to hold the queue or to panic. No flag or variable sets it in a
// build.
var testHook atomic.Pointer[func(ctx context.Context, method string)]

func (s *Server) gate(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		isCall := req.IsCall()
		method := req.Method()
		state := s.lifecycle()
		switch {
		case method == protocol.MethodExit:
			// The handlers started before this one returned before it ran
			// (the transport orders them); let their replies (shutdown's),
			// written once they returned, reach the client before the
			// process ends.
			go func() {
				s.conn.WaitReplies(time.Second)
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
