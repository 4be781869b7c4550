// Package lsp is fsrb's language server: it shows live, as the user types,
// which blocks of a patch (an .fsrb file or a Markdown chat answer) will
// apply, and applies all of them — or none — as one WorkspaceEdit.
//
// The server is a thin adapter over core, in the shape of gopls: one file
// per method group, every handler on the same template (take a snapshot,
// ask core, convert to protocol values). Open buffers are an overlay over
// the disk (snapshot.go); every editor event becomes one modification
// (modify.go); diagnostics run in their own cancellable goroutine
// (diagnostics.go). wire.go is the one place that works around the traps of
// go.lsp.dev/protocol v0.12.0 and jsonrpc2 v0.10.0.
package lsp
