package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// unimplemented completes protocol.Server with the methods fsrb does not
// serve: the interface check on Server turns this list into a to-do list.
// The gate (handler.go) answers these methods with MethodNotFound before
// they reach here; these bodies only guard against a new route.
//
// DidChange and CodeAction are served, but with our own types (wire.go):
// handler.go intercepts them before protocol.ServerHandler.
type unimplemented struct{}

func notImplemented(method string) error {
	return jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("fsrb: %s is not supported", method))
}

func (unimplemented) WorkDoneProgressCancel(ctx context.Context, params *protocol.WorkDoneProgressCancelParams) (err error) {
	return notImplemented("WorkDoneProgressCancel")
}

func (unimplemented) LogTrace(ctx context.Context, params *protocol.LogTraceParams) (err error) {
	return notImplemented("LogTrace")
}

func (unimplemented) SetTrace(ctx context.Context, params *protocol.SetTraceParams) (err error) {
	return notImplemented("SetTrace")
}

func (unimplemented) CodeAction(ctx context.Context, params *protocol.CodeActionParams) (result []protocol.CodeAction, err error) {
	return nil, notImplemented("CodeAction")
}

func (unimplemented) CodeLensResolve(ctx context.Context, params *protocol.CodeLens) (result *protocol.CodeLens, err error) {
	return nil, notImplemented("CodeLensResolve")
}

func (unimplemented) ColorPresentation(ctx context.Context, params *protocol.ColorPresentationParams) (result []protocol.ColorPresentation, err error) {
	return nil, notImplemented("ColorPresentation")
}

func (unimplemented) Completion(ctx context.Context, params *protocol.CompletionParams) (result *protocol.CompletionList, err error) {
	return nil, notImplemented("Completion")
}

func (unimplemented) CompletionResolve(ctx context.Context, params *protocol.CompletionItem) (result *protocol.CompletionItem, err error) {
	return nil, notImplemented("CompletionResolve")
}

func (unimplemented) Declaration(ctx context.Context, params *protocol.DeclarationParams) (result []protocol.Location, err error) {
	return nil, notImplemented("Declaration")
}

func (unimplemented) DidChange(ctx context.Context, params *protocol.DidChangeTextDocumentParams) (err error) {
	return notImplemented("DidChange")
}

func (unimplemented) DidChangeWorkspaceFolders(ctx context.Context, params *protocol.DidChangeWorkspaceFoldersParams) (err error) {
	return notImplemented("DidChangeWorkspaceFolders")
}

func (unimplemented) DocumentColor(ctx context.Context, params *protocol.DocumentColorParams) (result []protocol.ColorInformation, err error) {
	return nil, notImplemented("DocumentColor")
}

func (unimplemented) DocumentHighlight(ctx context.Context, params *protocol.DocumentHighlightParams) (result []protocol.DocumentHighlight, err error) {
	return nil, notImplemented("DocumentHighlight")
}

func (unimplemented) DocumentLinkResolve(ctx context.Context, params *protocol.DocumentLink) (result *protocol.DocumentLink, err error) {
	return nil, notImplemented("DocumentLinkResolve")
}

func (unimplemented) Formatting(ctx context.Context, params *protocol.DocumentFormattingParams) (result []protocol.TextEdit, err error) {
	return nil, notImplemented("Formatting")
}

func (unimplemented) Implementation(ctx context.Context, params *protocol.ImplementationParams) (result []protocol.Location, err error) {
	return nil, notImplemented("Implementation")
}

func (unimplemented) OnTypeFormatting(ctx context.Context, params *protocol.DocumentOnTypeFormattingParams) (result []protocol.TextEdit, err error) {
	return nil, notImplemented("OnTypeFormatting")
}

func (unimplemented) PrepareRename(ctx context.Context, params *protocol.PrepareRenameParams) (result *protocol.Range, err error) {
	return nil, notImplemented("PrepareRename")
}

func (unimplemented) RangeFormatting(ctx context.Context, params *protocol.DocumentRangeFormattingParams) (result []protocol.TextEdit, err error) {
	return nil, notImplemented("RangeFormatting")
}

func (unimplemented) References(ctx context.Context, params *protocol.ReferenceParams) (result []protocol.Location, err error) {
	return nil, notImplemented("References")
}

func (unimplemented) Rename(ctx context.Context, params *protocol.RenameParams) (result *protocol.WorkspaceEdit, err error) {
	return nil, notImplemented("Rename")
}

func (unimplemented) SignatureHelp(ctx context.Context, params *protocol.SignatureHelpParams) (result *protocol.SignatureHelp, err error) {
	return nil, notImplemented("SignatureHelp")
}

func (unimplemented) Symbols(ctx context.Context, params *protocol.WorkspaceSymbolParams) (result []protocol.SymbolInformation, err error) {
	return nil, notImplemented("Symbols")
}

func (unimplemented) TypeDefinition(ctx context.Context, params *protocol.TypeDefinitionParams) (result []protocol.Location, err error) {
	return nil, notImplemented("TypeDefinition")
}

func (unimplemented) WillSave(ctx context.Context, params *protocol.WillSaveTextDocumentParams) (err error) {
	return notImplemented("WillSave")
}

func (unimplemented) WillSaveWaitUntil(ctx context.Context, params *protocol.WillSaveTextDocumentParams) (result []protocol.TextEdit, err error) {
	return nil, notImplemented("WillSaveWaitUntil")
}

func (unimplemented) ShowDocument(ctx context.Context, params *protocol.ShowDocumentParams) (result *protocol.ShowDocumentResult, err error) {
	return nil, notImplemented("ShowDocument")
}

func (unimplemented) WillCreateFiles(ctx context.Context, params *protocol.CreateFilesParams) (result *protocol.WorkspaceEdit, err error) {
	return nil, notImplemented("WillCreateFiles")
}

func (unimplemented) DidCreateFiles(ctx context.Context, params *protocol.CreateFilesParams) (err error) {
	return notImplemented("DidCreateFiles")
}

func (unimplemented) WillRenameFiles(ctx context.Context, params *protocol.RenameFilesParams) (result *protocol.WorkspaceEdit, err error) {
	return nil, notImplemented("WillRenameFiles")
}

func (unimplemented) DidRenameFiles(ctx context.Context, params *protocol.RenameFilesParams) (err error) {
	return notImplemented("DidRenameFiles")
}

func (unimplemented) WillDeleteFiles(ctx context.Context, params *protocol.DeleteFilesParams) (result *protocol.WorkspaceEdit, err error) {
	return nil, notImplemented("WillDeleteFiles")
}

func (unimplemented) DidDeleteFiles(ctx context.Context, params *protocol.DeleteFilesParams) (err error) {
	return notImplemented("DidDeleteFiles")
}

func (unimplemented) CodeLensRefresh(ctx context.Context) (err error) {
	return notImplemented("CodeLensRefresh")
}

func (unimplemented) PrepareCallHierarchy(ctx context.Context, params *protocol.CallHierarchyPrepareParams) (result []protocol.CallHierarchyItem, err error) {
	return nil, notImplemented("PrepareCallHierarchy")
}

func (unimplemented) IncomingCalls(ctx context.Context, params *protocol.CallHierarchyIncomingCallsParams) (result []protocol.CallHierarchyIncomingCall, err error) {
	return nil, notImplemented("IncomingCalls")
}

func (unimplemented) OutgoingCalls(ctx context.Context, params *protocol.CallHierarchyOutgoingCallsParams) (result []protocol.CallHierarchyOutgoingCall, err error) {
	return nil, notImplemented("OutgoingCalls")
}

func (unimplemented) SemanticTokensFull(ctx context.Context, params *protocol.SemanticTokensParams) (result *protocol.SemanticTokens, err error) {
	return nil, notImplemented("SemanticTokensFull")
}

func (unimplemented) SemanticTokensFullDelta(ctx context.Context, params *protocol.SemanticTokensDeltaParams) (result any, err error) {
	return nil, notImplemented("SemanticTokensFullDelta")
}

func (unimplemented) SemanticTokensRange(ctx context.Context, params *protocol.SemanticTokensRangeParams) (result *protocol.SemanticTokens, err error) {
	return nil, notImplemented("SemanticTokensRange")
}

func (unimplemented) SemanticTokensRefresh(ctx context.Context) (err error) {
	return notImplemented("SemanticTokensRefresh")
}

func (unimplemented) LinkedEditingRange(ctx context.Context, params *protocol.LinkedEditingRangeParams) (result *protocol.LinkedEditingRanges, err error) {
	return nil, notImplemented("LinkedEditingRange")
}

func (unimplemented) Moniker(ctx context.Context, params *protocol.MonikerParams) (result []protocol.Moniker, err error) {
	return nil, notImplemented("Moniker")
}

func (unimplemented) Request(ctx context.Context, method string, params any) (result any, err error) {
	return nil, notImplemented(method)
}
