package lsp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/core"
)

// progressBlocks is the size from which applying a patch reports progress.
const progressBlocks = 50

func (s *Server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (any, error) {
	var u protocol.DocumentURI
	if len(params.Arguments) > 0 {
		if str, ok := params.Arguments[0].(string); ok {
			u = protocol.DocumentURI(str)
		}
	}
	// Every edit is built from the files as they are now (disk.go).
	snap := s.checkDisk()
	a := snap.analyze(u)
	if a == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("fsrb: %s needs the URI of an open patch document", params.Command))
	}
	caps := s.capabilities()
	var plan *core.Plan
	var label string
	switch params.Command {
	case CommandApplyAll:
		if !a.applies() {
			n := len(a.plan.Problems.Errors())
			s.show(ctx, protocol.MessageTypeError, fmt.Sprintf("fsrb: nothing applied: the patch has %s; every block must validate", plural(n, "problem")))
			return nil, nil
		}
		plan, label = a.plan, "fsrb: apply all blocks"
	case CommandApplyBlock:
		n := 0
		if len(params.Arguments) > 1 {
			if f, ok := params.Arguments[1].(float64); ok {
				n = int(f)
			}
		}
		plan = snap.planBlock(a, n)
		if plan == nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("fsrb: %s needs a block number between 1 and %d", params.Command, len(a.patch.Blocks)))
		}
		if !plan.OK() {
			s.show(ctx, protocol.MessageTypeError, fmt.Sprintf("fsrb: block #%d does not apply: %s", n, plan.Problems.Errors()[0].Message))
			return nil, nil
		}
		label = fmt.Sprintf("fsrb: apply block #%d", n)
	default:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("fsrb: unknown command %q", params.Command))
	}
	if !caps.applyEdit {
		s.show(ctx, protocol.MessageTypeError, "fsrb: the editor does not accept edits from the server (workspace.applyEdit); nothing was changed")
		return nil, nil
	}
	edit, err := snap.workspaceEdit(plan, caps)
	if err != nil {
		s.show(ctx, protocol.MessageTypeError, err.Error())
		return nil, nil
	}
	own := snap.ownEdits(plan)

	// Waiting on the editor (a dialog, a busy client, one that never
	// answers) must not hold up the messages behind this one.
	releaseQueue(ctx)
	done := s.progress(ctx, params.WorkDoneToken, caps, plan, label)
	res, err := s.applyEdit(ctx, label, edit)
	done()
	switch {
	case err != nil:
		return nil, err
	case res.Applied:
		s.recordOwnEdits(own)
		s.show(ctx, protocol.MessageTypeInfo, fmt.Sprintf("fsrb: applied %s to %s", plural(plan.BlockCount(), "block"), plural(len(plan.Files), "file")))
	default:
		why := res.FailureReason
		if why == "" {
			why = "no reason given"
		}
		s.show(ctx, protocol.MessageTypeWarning, "fsrb: the editor did not apply the edit ("+why+"); nothing was changed")
	}
	return res, nil
}

// ownEdits is what an edit of plan leaves in the editor, file by file, for
// the server's view once the client says it applied it (disk.go).
func (s *snapshot) ownEdits(plan *core.Plan) map[string]*ownEdit {
	own := map[string]*ownEdit{}
	for _, fc := range plan.Files {
		w := &ownEdit{
			text: string(fc.New), deleted: fc.Action == core.ActionDelete, docVersion: -1, before: string(fc.Old),
			disk: statFile(filepath.Join(s.view.root, filepath.FromSlash(fc.Path))),
		}
		if d, ok := s.overlay[fc.Path]; ok {
			w.docVersion = d.version
		}
		own[fc.Path] = w
	}
	return own
}

func (s *Server) recordOwnEdits(own map[string]*ownEdit) {
	if err := s.modify(modification{kind: modOwnEdit, own: own}); err != nil {
		s.log.Info("recording an applied edit", zap.Error(err))
	}
}

// applyEdit sends workspace/applyEdit with our WorkspaceEdit (wire.go).
func (s *Server) applyEdit(ctx context.Context, label string, edit *WorkspaceEdit) (*ApplyWorkspaceEditResult, error) {
	var res ApplyWorkspaceEditResult
	id, err := s.conn.Call(ctx, protocol.MethodWorkspaceApplyEdit, &ApplyWorkspaceEditParams{Label: label, Edit: *edit}, &res)
	if ctx.Err() != nil {
		_ = s.conn.Notify(context.WithoutCancel(ctx), protocol.MethodCancelRequest, map[string]any{"id": &id})
		return nil, ctx.Err()
	}
	if err != nil {
		var rpc *jsonrpc2.Error
		if errors.As(err, &rpc) {
			return &ApplyWorkspaceEditResult{FailureReason: rpc.Message}, nil
		}
		return nil, err
	}
	return &res, nil
}

func (s *Server) show(ctx context.Context, kind protocol.MessageType, msg string) {
	if err := s.client.ShowMessage(context.WithoutCancel(ctx), &protocol.ShowMessageParams{Type: kind, Message: msg}); err != nil {
		s.log.Info("showMessage", zap.Error(err))
	}
}

// progress reports work-done progress for a big patch when the client
// supports it, and returns the function that ends it.
func (s *Server) progress(ctx context.Context, token *protocol.ProgressToken, caps clientCaps, plan *core.Plan, title string) func() {
	if plan.BlockCount() < progressBlocks || !caps.workDoneProgress && token == nil {
		return func() {}
	}
	ctx = context.WithoutCancel(ctx)
	if token == nil {
		token = protocol.NewProgressToken(fmt.Sprintf("fsrb-apply-%p", plan))
		if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: *token}); err != nil {
			return func() {}
		}
	}
	_ = s.client.Progress(ctx, &protocol.ProgressParams{Token: *token, Value: &protocol.WorkDoneProgressBegin{
		Kind:    protocol.WorkDoneProgressKindBegin,
		Title:   title,
		Message: fmt.Sprintf("%s in %s", plural(plan.BlockCount(), "block"), plural(len(plan.Files), "file")),
	}})
	return func() {
		_ = s.client.Progress(ctx, &protocol.ProgressParams{Token: *token, Value: &protocol.WorkDoneProgressEnd{Kind: protocol.WorkDoneProgressKindEnd}})
	}
}
