package lsp

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/pipeline"
)

// Command names of workspace/executeCommand.
const (
	CommandApplyAll    = "fsrb.applyAll"    // args: patch document URI
	CommandApplyBlock  = "fsrb.applyBlock"  // args: patch document URI, block number
	CommandRevertAll   = "fsrb.revertAll"   // args: patch document URI
	CommandRevertBlock = "fsrb.revertBlock" // args: patch document URI, block number
	CommandStatus      = "fsrb.status"      // args: patch document URI; answers a StatusReport
	// CommandSkipBlock leaves a block out of Apply all, CommandIncludeBlock
	// puts it back; both answer the StatusReport after it (skip.go).
	CommandSkipBlock    = "fsrb.skipBlock"    // args: patch document URI, block number
	CommandIncludeBlock = "fsrb.includeBlock" // args: patch document URI, block number
	// CommandPreview answers a PreviewReport: each file Apply all would
	// change, its current and proposed text. Not listed in the capabilities:
	// the VS Code extension registers a command of this name with its own
	// UI (a multi-file diff), and the language client registers every listed
	// command itself; Neovim 0.7's initialize result stays as it was.
	CommandPreview = "fsrb.preview" // args: patch document URI; answers a PreviewReport
	// CommandApplied is the command of the Apply and Revert code actions:
	// the client runs it once it applied the action's edit (actionedits.go).
	CommandApplied = "fsrb.applied" // args: the id the action carries
)

// Code action kinds of "Apply all blocks" and "Revert all blocks" as source
// actions (they are also offered as refactor.rewrite).
const (
	KindApplyAll  protocol.CodeActionKind = "source.applyAll.fsrb"
	KindRevertAll protocol.CodeActionKind = "source.revertAll.fsrb"
)

// clientCaps is what the server needs to know of the client.
type clientCaps struct {
	documentChanges   bool
	resourceOps       map[string]bool
	failureHandling   string
	applyEdit         bool
	workDoneProgress  bool
	disabledActions   bool // codeAction.disabledSupport
	watchRegistration bool
	codeLensRefresh   bool // workspace.codeLens.refreshSupport
	// pullDiagnostics: the client pulls diagnostics (textDocument.diagnostic)
	// and can be told to pull again (workspace.diagnostics.refreshSupport).
	// A patch's diagnostics change when its target files do, which only a
	// refresh tells a pulling client: Neovim 0.10 advertises pull without
	// refresh, and gets push (pull.go).
	pullDiagnostics  bool
	inlayHints       bool // textDocument.inlayHint
	inlayHintRefresh bool // workspace.inlayHint.refreshSupport
	showDocument     bool // window.showDocument.support
	fsrb             fsrbCaps
}

// fsrbCaps is what a client of fsrb's own declares under
// experimental.fsrb: how its editor applies edits, which no LSP
// capability says.
type fsrbCaps struct {
	// EditsByCommand: the Apply and Revert code actions carry their
	// command and no edit, so that the edit reaches the client as
	// workspace/applyEdit, which a plugin can handle for its own client
	// alone (Neovim applies a code action's edit with a function shared
	// by every server).
	EditsByCommand bool `json:"editsByCommand"`
	// ChecksDeleteRuns: the client checks a run of deletes as a whole
	// before it performs any (VS Code), so a folder the same edit empties
	// needs a no-op between its files' deletes and its own (edits.go).
	ChecksDeleteRuns bool `json:"checksDeleteRuns"`
}

func readCaps(c protocol.ClientCapabilities) clientCaps {
	cc := clientCaps{resourceOps: map[string]bool{}}
	if w := c.Workspace; w != nil {
		cc.applyEdit = flag(w.ApplyEdit)
		if we := w.WorkspaceEdit; we != nil {
			cc.documentChanges = flag(we.DocumentChanges)
			cc.failureHandling = string(we.FailureHandling)
			for _, op := range we.ResourceOperations {
				cc.resourceOps[string(op)] = true
			}
			// Neovim 0.7 advertises resourceOperations but not
			// documentChanges, and handles both: a client that can run
			// resource operations can only receive them in documentChanges.
			if len(we.ResourceOperations) > 0 {
				cc.documentChanges = true
			}
		}
		if d := w.DidChangeWatchedFiles; d != nil {
			cc.watchRegistration = flag(d.DynamicRegistration)
		}
		if cl := w.CodeLens; cl != nil {
			cc.codeLensRefresh = flag(cl.RefreshSupport)
		}
		if ih := w.InlayHint; ih != nil {
			cc.inlayHintRefresh = flag(ih.RefreshSupport)
		}
		if d := w.Diagnostics; d != nil {
			cc.pullDiagnostics = flag(d.RefreshSupport)
		}
	}
	if w := c.Window; w != nil {
		cc.workDoneProgress = flag(w.WorkDoneProgress)
		cc.showDocument = w.ShowDocument != nil && w.ShowDocument.Support
	}
	td := c.TextDocument
	if td != nil && td.CodeAction != nil {
		cc.disabledActions = flag(td.CodeAction.DisabledSupport)
	}
	cc.pullDiagnostics = cc.pullDiagnostics && td != nil && td.Diagnostic != nil
	cc.inlayHints = td != nil && td.InlayHint != nil
	var exp struct {
		Fsrb fsrbCaps `json:"fsrb"`
	}
	if len(c.Experimental) > 0 && json.Unmarshal(c.Experimental, &exp) == nil {
		cc.fsrb = exp.Fsrb
	}
	return cc
}

func flag(b *bool) bool { return b != nil && *b }

// settings are the server's options, from initializationOptions and
// workspace/didChangeConfiguration.
type settings struct {
	// Fuzzy lets blocks without an exact match climb core's tolerant ladder.
	Fuzzy bool `json:"fuzzy"`
	// ShowChangedFiles opens the files an "Apply all" changed
	// (window/showDocument), where the client supports it.
	ShowChangedFiles bool `json:"showChangedFiles"`
}

// parseSettings reads {"fuzzy": true} or {"fsrb": {"fuzzy": true}} (VS Code
// sends a section per extension) over cur.
func parseSettings(data protocol.LSPAny, cur settings) (settings, bool) {
	if len(data) == 0 || string(data) == "null" {
		return cur, false
	}
	var wrapped struct {
		Fsrb *json.RawMessage `json:"fsrb"`
	}
	if json.Unmarshal(data, &wrapped) == nil && wrapped.Fsrb != nil {
		data = protocol.LSPAny(*wrapped.Fsrb)
	}
	next := cur
	if err := json.Unmarshal(data, &next); err != nil {
		return cur, false
	}
	return next, true
}

func (s *Server) Initialize(ctx context.Context, params *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	root := ""
	folders, _ := params.WorkspaceFolders.Get()
	rootURI, rootPath := legacyRoot(params)
	switch {
	case len(folders) > 0:
		root, _ = filename(folders[0].URI)
	case rootURI != "":
		root, _ = filename(rootURI)
	case rootPath != "":
		root = rootPath
	}
	if root == "" {
		// No folder from the client: the root of the CLI and the MCP
		// server, the repository around the working directory.
		root, _, _, _ = pipeline.ResolveRoot("")
	}
	v, err := newView(root)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "fsrb: "+err.Error())
	}
	set, _ := parseSettings(params.InitializationOptions, settings{})

	caps := readCaps(params.Capabilities)
	s.mu.Lock()
	s.caps = caps
	next := s.snap.clone()
	next.view, next.settings = v, set
	s.snap = next
	s.state = stateRunning
	s.mu.Unlock()
	s.log.Info("initialize", zap.String("root", v.root), zap.Bool("fuzzy", set.Fuzzy),
		zap.Bool("pullDiagnostics", caps.pullDiagnostics), zap.Bool("inlayHints", caps.inlayHints))

	res := &protocol.InitializeResult{
		ServerInfo: protocol.ServerInfo{Name: "fsrb-lsp", Version: protocol.NewOptional(s.opt.Version)},
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: ptr(true),
				Change:    ptr(protocol.TextDocumentSyncKindIncremental),
				Save:      &protocol.SaveOptions{}, // didSave triggers a disk check
			},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, protocol.CodeActionKindRefactorRewrite, KindApplyAll, KindRevertAll},
			},
			CodeLensProvider:       &protocol.CodeLensOptions{},
			ExecuteCommandProvider: protocol.ExecuteCommandOptions{Commands: []string{CommandApplyAll, CommandApplyBlock, CommandRevertAll, CommandRevertBlock, CommandStatus, CommandSkipBlock, CommandIncludeBlock, CommandApplied}},
			HoverProvider:          protocol.Boolean(true),
			DefinitionProvider:     protocol.Boolean(true),
			DocumentLinkProvider:   &protocol.DocumentLinkOptions{},
			DocumentSymbolProvider: protocol.Boolean(true),
			FoldingRangeProvider:   protocol.Boolean(true),
		},
	}
	// Offered to the clients that use them only: a client of LSP 3.16
	// (Neovim 0.7) sees the capabilities it always saw.
	if caps.pullDiagnostics {
		// Inter-file: a patch's diagnostics follow its target files.
		res.Capabilities.DiagnosticProvider = &protocol.DiagnosticOptions{InterFileDependencies: true}
	}
	if caps.inlayHints {
		res.Capabilities.InlayHintProvider = protocol.Boolean(true)
	}
	return res, nil
}

// legacyRoot reads rootUri and rootPath: deprecated in favour of
// workspaceFolders, but all a client without workspace folders sends.
func legacyRoot(p *protocol.InitializeParams) (uri.URI, string) {
	//lint:ignore SA1019 the fallback of clients without workspaceFolders
	rootPath, _ := p.RootPath.Get()
	//lint:ignore SA1019 the fallback of clients without workspaceFolders
	if u := p.RootURI; u != nil {
		return *u, rootPath
	}
	return "", rootPath
}

func (s *Server) Initialized(ctx context.Context, params *protocol.InitializedParams) error {
	if !s.capabilities().watchRegistration {
		return nil
	}
	// A request to the client must not hold up the handlers behind this
	// one, so it goes out on its own.
	go func() {
		opts, _ := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{
			Watchers: []protocol.FileSystemWatcher{{GlobPattern: protocol.Pattern("**/*")}},
		})
		reg := protocol.RegistrationParams{Registrations: []protocol.Registration{{
			ID:              "fsrb-watch",
			Method:          protocol.MethodWorkspaceDidChangeWatchedFiles,
			RegisterOptions: protocol.LSPAny(opts),
		}}}
		if err := s.client.RegisterCapability(context.WithoutCancel(ctx), &reg); err != nil {
			s.log.Info("watching files not registered", zap.Error(err))
		}
	}()
	return nil
}

func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.state = stateShutdown
	s.mu.Unlock()
	return nil
}

// Exit is answered by the gate (handler.go), which signals the process.
func (s *Server) Exit(ctx context.Context) error { return nil }
