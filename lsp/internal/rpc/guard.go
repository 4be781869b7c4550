package rpc

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// guard logs each call, turns a panic into an InternalError reply
// (jsonrpc2 answers a panicking handler too, but then closes the
// connection), gives every error a code (wireError) and drops the error
// of a notification, which has no one to answer and would close the
// connection.
func (c *Conn) guard(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (result any, err error) {
		start := time.Now()
		method := req.Method()
		if req.IsCall() {
			c.replying.Add(1) // until the framer writes the reply
		}
		defer func() {
			if p := recover(); p != nil {
				c.log.Error("panic", zap.String("method", method), zap.Any("panic", p), zap.ByteString("stack", debug.Stack()))
				result, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("fsrb: internal error in %s: %v", method, p))
			}
			err = wireError(err)
			if !req.IsCall() {
				if err != nil {
					c.log.Info("notification failed", zap.String("method", method), zap.Error(err))
				}
				result, err = nil, nil
				return
			}
			fields := []zap.Field{zap.String("method", method), zap.Duration("took", time.Since(start)), zap.String("id", fmt.Sprintf("%v", req.ID()))}
			if err != nil {
				c.log.Info("reply", append(fields, zap.Error(err))...)
			} else {
				c.log.Debug("reply", fields...)
			}
		}()
		return next(ctx, req)
	}
}

// wireError makes sure every error sent on the wire carries a code: a
// plain Go error is an InternalError (jsonrpc2 would send code 0), and
// params that do not decode are InvalidParams (protocol.ServerHandler
// wraps jsonrpc2.ErrParse: the message was parsed, its params are wrong).
func wireError(err error) error {
	if err == nil {
		return nil
	}
	var e *jsonrpc2.Error
	if !errors.As(err, &e) {
		return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
	}
	if e.Code == jsonrpc2.ParseError && err != e {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, "fsrb: bad params: "+strings.TrimPrefix(err.Error(), e.Error()+": "))
	}
	return err
}
