package lsp

import (
	"context"
	"io"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/lsp/internal/rpc"
	"github.com/fsrb/fsrb/treesitter"
)

// DefaultDebounce is the longest diagnostics wait for a burst of typing to
// end. The wait adapts to what a validation costs (diagnostics.go): a few
// milliseconds for a patch that validates in a few milliseconds.
const DefaultDebounce = 300 * time.Millisecond

// treeFiles bounds the tree-sitter cache: the target files whose parse
// trees (a few versions each) the session keeps.
const treeFiles = 128

// treeTimeout bounds one parse: diagnostics must not wait long for a
// syntax check or a widening, which are only advice.
const treeTimeout = 500 * time.Millisecond

func newTrees() *treesitter.Cache {
	c := treesitter.NewCache(treeFiles)
	c.Timeout = treeTimeout
	c.WholeFiles = true
	return c
}

// Options configures a server.
type Options struct {
	// Logger receives the server's logs; nil discards them. It must never
	// write to the protocol's stdout.
	Logger *zap.Logger
	// Debounce is the longest diagnostics wait after a change; the wait
	// itself follows the cost of a validation. 0 runs them at once
	// (tests). Use DefaultDebounce in editors.
	Debounce time.Duration
	// Version is reported in serverInfo.
	Version string
}

// Session is a running server on one connection.
type Session struct {
	conn *rpc.Conn
	srv  *Server
}

// Done is closed when the connection ends.
func (s *Session) Done() <-chan struct{} { return s.conn.Done() }

// Exit delivers the exit code once the client sends "exit": 0 after a
// shutdown request, 1 otherwise (LSP's rule). Ending the process is the
// caller's job: closing the connection does not do it.
func (s *Session) Exit() <-chan int { return s.srv.exit }

// Close closes the connection.
func (s *Session) Close() error { return s.conn.Close() }

// Serve starts a server on rwc (stdio in the editor, a pipe in tests) and
// returns at once.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opt Options) *Session {
	if opt.Logger == nil {
		opt.Logger = zap.NewNop()
	}
	// By hand rather than protocol.NewServer, which starts the conn with
	// its own handler chain, running requests concurrently and out of
	// order (internal/rpc).
	conn := rpc.New(rwc, rpc.Options{Logger: opt.Logger})
	srv := newServer(conn, opt)
	// Diagnostics stop with the connection; requests already read still
	// run to their reply.
	diagCtx, cancel := context.WithCancel(ctx)
	go func() {
		<-conn.Done()
		cancel()
	}()
	srv.diag.start(diagCtx)
	conn.Serve(ctx, srv.handler())
	return &Session{conn: conn, srv: srv}
}

type lifecycle int

const (
	stateNew lifecycle = iota
	stateRunning
	stateShutdown
)

// Server holds the state of one session. Handlers run one at a time, in
// order (internal/rpc); diagnostics run beside them on snapshots.
type Server struct {
	protocol.UnimplementedServer

	conn   *rpc.Conn
	client protocol.Client
	log    *zap.Logger
	opt    Options
	diag   *diagnoser
	route  jsonrpc2.Handler // protocol.ServerHandler over s

	exitOnce sync.Once
	exit     chan int

	mu    sync.Mutex
	state lifecycle
	caps  clientCaps
	snap  *snapshot
	// deps holds, per patch document, the target files its last analysis
	// named, so that a change to one of them re-validates only the patches
	// that name it.
	deps map[uri.URI]map[string]bool
	// actionEdits holds what the edits of the last code actions leave, by
	// the id their command carries (actionedits.go).
	actionEdits map[string]*actionEdit
	actionOrder []string
	actionSeq   int
}

var _ protocol.Server = (*Server)(nil)

func newServer(conn *rpc.Conn, opt Options) *Server {
	s := &Server{
		conn:   conn,
		client: protocol.ClientDispatcher(conn.Peer()),
		log:    opt.Logger,
		opt:    opt,
		exit:   make(chan int, 1),
		snap:   emptySnapshot(newTrees(), newPriorPlans(), newSeenFiles()),
		deps:   map[uri.URI]map[string]bool{},

		actionEdits: map[string]*actionEdit{},
	}
	s.diag = newDiagnoser(s, opt.Debounce)
	s.route = protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)
	return s
}

func (s *Server) lifecycle() lifecycle {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// snapshot returns the current state of the workspace.
func (s *Server) snapshot() *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snap
}

func (s *Server) capabilities() clientCaps {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

func (s *Server) signalExit() {
	code := 1
	if s.lifecycle() == stateShutdown {
		code = 0
	}
	s.exitOnce.Do(func() { s.exit <- code })
}
