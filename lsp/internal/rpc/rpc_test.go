package rpc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/fsrb/fsrb/internal/testenv"
	"github.com/fsrb/fsrb/lsp/internal/rpc"
)

// The transport alone, without the server: a malformed frame is answered
// and the connection goes on; messages run one at a time, in order, and
// Release lets the next one start; a cancel reaches a queued request; a
// panic and a plain error become replies with a code.
func TestTransport(t *testing.T) {
	serverSide, clientSide := net.Pipe()
	conn := rpc.New(serverSide, rpc.Options{})
	hold := make(chan struct{})
	var mu sync.Mutex
	var order []string
	conn.Serve(context.Background(), func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		mu.Lock()
		order = append(order, req.Method())
		mu.Unlock()
		switch req.Method() {
		case "hold": // waits on the "client", after letting the next start
			rpc.Release(ctx)
			<-hold
			return "held", nil
		case "slow":
			<-ctx.Done()
			return nil, ctx.Err()
		case "panic":
			panic("boom")
		case "plain":
			return nil, errors.New("plain")
		}
		return req.Method(), nil
	})
	t.Cleanup(func() { _ = conn.Close(); <-conn.Done() })

	in := bufio.NewReader(clientSide)
	replies := make(chan map[string]any, 16)
	go func() {
		for {
			var n int
			for {
				line, err := in.ReadString('\n')
				if err != nil {
					close(replies)
					return
				}
				if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Content-Length: "); ok {
					n, _ = strconv.Atoi(v)
				}
				if strings.TrimSpace(line) == "" {
					break
				}
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(in, body); err != nil {
				close(replies)
				return
			}
			var m map[string]any
			_ = json.Unmarshal(body, &m)
			replies <- m
		}
	}()
	send := func(body string) {
		if _, err := fmt.Fprintf(clientSide, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
			t.Fatal(err)
		}
	}
	next := func() map[string]any {
		select {
		case m := <-replies:
			return m
		case <-time.After(testenv.Timeout(t, 10*time.Second)):
			t.Fatal("no reply")
		}
		return nil
	}
	code := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}

	send("{not json")
	if m := next(); m["id"] != nil || code(m) != float64(jsonrpc2.ParseError) {
		t.Errorf("not JSON: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"hold"}`)
	// A didChange with nothing before it running runs in the read loop;
	// one behind a running request waits its turn outside it, or the
	// cancel after it could not be read.
	send(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"slow"}`)
	send(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{}}`)
	send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`)
	if m := next(); m["id"] != float64(2) || code(m) != -32800 {
		t.Errorf("cancelled: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"panic"}`)
	if m := next(); m["id"] != float64(3) || code(m) != float64(jsonrpc2.InternalError) || !strings.Contains(fmt.Sprint(m["error"]), "boom") {
		t.Errorf("panic: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"plain"}`)
	if m := next(); m["id"] != float64(4) || code(m) != float64(jsonrpc2.InternalError) {
		t.Errorf("plain error: %v", m)
	}
	close(hold)
	if m := next(); m["id"] != float64(1) || m["result"] != "held" {
		t.Errorf("held: %v", m)
	}
	conn.WaitReplies(testenv.Timeout(t, time.Second))
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(order, " "); got != "hold textDocument/didChange slow textDocument/didChange panic plain" {
		t.Errorf("order %q", got)
	}
}
