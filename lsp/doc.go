// Package lsp is fsrb's language server: it shows live, as the user types,
// which blocks of a patch (an .fsrb file, a Markdown chat answer, or a
// *.patch / *.diff file in any format core reads) will apply, and applies
// all of them — or none — as one WorkspaceEdit. Tree-sitter (package
// treesitter, through the session's own cache) names the places of an
// ambiguous block, proposes the block that targets each, and flags edits
// that break a file's syntax.
//
// The server is a thin adapter over core, in the shape of gopls: one file
// per method group, every handler on the same template (take a snapshot,
// ask core, convert to protocol values). Open buffers are an overlay over
// the disk (snapshot.go); every editor event becomes one modification
// (modify.go); diagnostics run in their own cancellable goroutine
// (diagnostics.go), pushed, or pulled by clients that can be told to pull
// again when a patch's targets change (pull.go); inlay hints (inlay.go) and
// the preview of Apply all (preview.go) read the same analysis. Handlers use go.lsp.dev/protocol v1 (LSP 3.18) types
// and protocol.ServerHandler behind the lifecycle gate (handler.go). The
// transport is package lsp/internal/rpc: JSON-RPC framing that survives a
// malformed message, one message at a time in arrival order, cancellation,
// panic recovery and an error code on every error; it imports none of
// fsrb's packages. position.go is the one conversion between LSP positions
// and core's byte offsets, both ways, which every handler uses: a position
// past the end of the document is an error, never clamped. uri.go keeps
// what the URI library leaves to the server.
package lsp
