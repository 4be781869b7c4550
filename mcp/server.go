// Package mcp is fsrb's Model Context Protocol server ("fsrb mcp"): the
// engine as tools a coding agent calls over stdio. It only adapts: every
// tool runs the CLI's pipeline (pipeline.Workspace), answers with the
// CLI's --json object as structured content and its human report as text,
// and confines every path exactly as the CLI does.
package mcp

// The contract narrows the root by the client's MCP roots (docs/ARCHITECTURE.md
// "MCP server"); the SDK marks roots deprecated but keeps them working, and
// clients still send them.
//
//lint:file-ignore SA1019 MCP roots are part of our contract while clients send them

import (
	"context"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fsrb/fsrb/pipeline"
)

// Options configure a server.
type Options struct {
	// Root is the workspace root (absolute). Explicit says the user gave
	// it (--root): the client's MCP roots then only narrow it; without it
	// (the repository around the working directory), the client's roots
	// replace it.
	Root     string
	Explicit bool
	// Origin says how Root was chosen (pipeline.ResolveRoot), for the
	// note that names the root when a path is missing.
	Origin  pipeline.Origin
	Version string
}

// originClient is the origin of a root the client gave.
const originClient pipeline.Origin = "a root the MCP client gave"

// origin says where ws, one of the workspaces a call may use, came from.
func (s *Server) origin(ws *pipeline.Workspace) pipeline.Origin {
	if ws == s.base {
		return s.opt.Origin
	}
	return originClient
}

// Server serves fsrb's tools to one client.
type Server struct {
	opt  Options
	base *pipeline.Workspace

	mu     sync.Mutex
	roots  []*pipeline.Workspace // the client's roots, narrowed; nil for none
	asking chan struct{}         // closed when the roots asked for last have come (nil: never asked)
	known  bool                  // the roots are current (newer protocol: asked within a tool call)
	lastWS *pipeline.Workspace   // where the last commit of this session wrote

	editing sync.Mutex // one validate+commit at a time: a second would conflict

	stop     chan struct{} // closed by Interrupt: the commit running rolls back
	stopOnce sync.Once
}

// New makes a server for the workspace at opt.Root.
func New(opt Options) (*Server, error) {
	ws, err := pipeline.Open(opt.Root, opt.Root)
	if err != nil {
		return nil, err
	}
	return &Server{opt: opt, base: ws, stop: make(chan struct{})}, nil
}

// Interrupt rolls back the commit running, if any, unless it has reached
// its commit point, and every later one: a signal asked the server to
// stop. Call it as the signal comes, not once Run has returned: Run
// waits for the tool calls running.
func (s *Server) Interrupt() {
	s.stopOnce.Do(func() { close(s.stop) })
}

// Shutdown waits for the commit running, if any, and keeps any other
// from starting: the process may exit then, every file all old or all
// new.
func (s *Server) Shutdown() {
	s.editing.Lock() // never unlocked: nothing is written after
}

// Run serves over the transport (Stdio for "fsrb mcp") until
// the client goes away.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.sdkServer().Run(ctx, t)
}

func (s *Server) sdkServer() *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: "fsrb", Title: "fsrb: all-or-nothing code edits", Version: s.opt.Version}, &sdk.ServerOptions{
		Instructions: instructions,
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
		// The roots are asked for outside any request (a server may not
		// call the client while it serves a tool call on the newest
		// protocol), once the session is up and whenever they change.
		InitializedHandler: func(_ context.Context, req *sdk.InitializedRequest) {
			s.askRoots(req.Session)
		},
		RootsListChangedHandler: func(_ context.Context, req *sdk.RootsListChangedRequest) {
			s.mu.Lock()
			s.known = false
			s.mu.Unlock()
			s.askRoots(req.Session)
		},
	})
	s.addTools(srv)
	return srv
}

const instructions = `fsrb edits files under the workspace root, all or nothing: either every edit of a call is written, or nothing is. ` +
	`Use edit / multi_edit for str_replace edits (old_string must occur exactly once unless replace_all), ` +
	`apply for a patch (SEARCH/REPLACE blocks, *** Begin Patch, unified diff, hashline blocks, or agents' tool-call JSON), ` +
	`validate to check a patch without writing, read to see a file with line numbers (hashlines for hashline blocks), and undo to revert the last change.`

// rootsWait bounds how long a tool call waits for the client's roots.
const rootsWait = 10 * time.Second

// askRoots asks the client for its roots in the background, when it has
// them; tool calls wait for the answer (workspaces). This is the way of
// the protocol up to 2025-11-25; from 2026-07-28 on, a tool call asks.
func (s *Server) askRoots(ss *sdk.ServerSession) {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.RootsV2 == nil || multiRoundTrip(p.ProtocolVersion) {
		return
	}
	done := make(chan struct{})
	s.mu.Lock()
	s.asking = done
	s.mu.Unlock()
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), rootsWait)
		defer cancel()
		var roots []*pipeline.Workspace
		if res, err := ss.ListRoots(ctx, nil); err == nil {
			roots = s.narrow(res)
		}
		s.mu.Lock()
		if s.asking == done {
			s.roots, s.known = roots, true
		}
		s.mu.Unlock()
	}()
}

// multiRoundTrip: from protocol 2026-07-28 on, a server asks the client
// within a tool call's answer (SEP-2322), never by a request of its own.
func multiRoundTrip(version string) bool { return version >= "2026-07-28" }

// rootsKey names the roots/list input request of a tool call.
const rootsKey = "roots"

// workspaces returns the roots the server works in: the client's MCP
// roots (narrowed to --root when one was given), else the base root.
// ask, when not nil, is the answer to give instead: on the newer protocol
// it asks the client for its roots, and the client calls again with them.
func (s *Server) workspaces(ctx context.Context, req *sdk.CallToolRequest) (wss []*pipeline.Workspace, ask *sdk.CallToolResult) {
	if req != nil && multiRoundTrip(req.ProtocolVersion()) {
		if caps := req.ClientCapabilities(); caps != nil && caps.RootsV2 != nil {
			if res, ok := req.Params.InputResponses[rootsKey].(*sdk.ListRootsResult); ok {
				roots := s.narrow(res)
				s.mu.Lock()
				s.roots, s.known = roots, true
				s.mu.Unlock()
			}
			s.mu.Lock()
			known := s.known
			s.mu.Unlock()
			if !known {
				return nil, &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{rootsKey: &sdk.ListRootsParams{}}}
			}
		}
	}
	s.mu.Lock()
	asking := s.asking
	s.mu.Unlock()
	if asking != nil {
		select {
		case <-asking:
		case <-ctx.Done():
		case <-time.After(rootsWait):
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.roots) > 0 {
		return s.roots, nil
	}
	return []*pipeline.Workspace{s.base}, nil
}

// narrow keeps the client's roots that are folders, narrowed to the base
// root when --root was given.
func (s *Server) narrow(res *sdk.ListRootsResult) []*pipeline.Workspace {
	if res == nil {
		return nil
	}
	var out []*pipeline.Workspace
	seen := map[string]bool{}
	for _, r := range res.Roots {
		dir, ok := fileURIPath(r.URI)
		if !ok {
			continue
		}
		ws, err := pipeline.Open(dir, dir)
		if err != nil {
			continue
		}
		if s.opt.Explicit {
			switch {
			case within(ws.Root, s.base.Root):
			case within(s.base.Root, ws.Root):
				ws = s.base // the client's root holds --root: --root it is
			default:
				continue // outside --root: not ours to touch
			}
		}
		if !seen[ws.Root] {
			seen[ws.Root] = true
			out = append(out, ws)
		}
	}
	return out
}

func within(p, root string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")
}

// fileURIPath turns a file:// URI into a local path.
func fileURIPath(uri string) (string, bool) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", false
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/")
	}
	return filepath.FromSlash(p), true
}

// workspaceFor picks the root a set of paths lives in: the first root
// holding the first absolute path among them, else the first root.
func workspaceFor(wss []*pipeline.Workspace, paths []string) *pipeline.Workspace {
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") && !filepath.IsAbs(p) {
			continue
		}
		for _, ws := range wss {
			if _, err := ws.Clean(p); err == nil {
				return ws
			}
		}
		break
	}
	return wss[0]
}
