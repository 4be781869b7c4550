package rpc

import (
	"context"
	"fmt"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// cancellable answers $/cancelRequest in the read loop, before ordering,
// so that a request still queued or running can be cancelled. A cancel
// whose id cannot be read is ignored (protocol.CancelHandler would answer
// it with an error, which for a notification closes the connection).
func (c *Conn) cancellable(next jsonrpc2.Handler) jsonrpc2.Handler {
	var mu sync.Mutex
	running := map[jsonrpc2.ID]context.CancelFunc{}
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodCancelRequest {
			if id, ok := cancelID(req.Params()); ok {
				mu.Lock()
				cancel := running[id]
				mu.Unlock()
				if cancel != nil {
					c.log.Debug("cancel", zap.String("id", fmt.Sprintf("%v", id)))
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

// cancelID reads the id of a $/cancelRequest; ok is false for anything
// but an integer or a string.
func cancelID(params jsonrpc2.RawMessage) (jsonrpc2.ID, bool) {
	var p protocol.CancelParams
	if err := protocol.Unmarshal(params, &p); err != nil {
		return jsonrpc2.ID{}, false
	}
	switch id := p.ID.(type) {
	case protocol.Integer:
		return jsonrpc2.NewNumberID(int64(id)), true
	case protocol.String:
		return jsonrpc2.NewStringID(string(id)), true
	}
	return jsonrpc2.ID{}, false
}
