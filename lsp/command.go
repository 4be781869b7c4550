package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/lsp/internal/rpc"
)

// progressBlocks is the size from which applying a patch reports progress.
const progressBlocks = 50

func (s *Server) ExecuteCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (protocol.LSPAny, error) {
	res, err := s.executeCommand(ctx, params)
	if err != nil || res == nil {
		return nil, err
	}
	var data []byte
	switch res := res.(type) {
	case *protocol.ApplyWorkspaceEditResult:
		data, err = protocol.Marshal(res)
	default:
		data, err = json.Marshal(res)
	}
	return protocol.LSPAny(data), err
}

func (s *Server) executeCommand(ctx context.Context, params *protocol.ExecuteCommandParams) (any, error) {
	var str string
	if len(params.Arguments) > 0 {
		json.Unmarshal(params.Arguments[0], &str)
	}
	if params.Command == CommandApplied {
		s.applied(ctx, str)
		return nil, nil
	}
	// Decoded as a document's URI in a notification is, so that it names
	// the same document: Neovim writes escapes in lower case (%5b), which
	// the protocol's decoding turns to upper case.
	u := uri.URI(str)
	if p, err := uri.Parse(str); err == nil {
		u = p
	}
	// Every edit is built from the files as they are now (disk.go).
	snap := s.checkDisk()
	a := snap.analyze(u)
	// An error says only what is wrong: the clients put "fsrb:" and the
	// command's name before it ("fsrb: fsrb.applyBlock failed: …").
	if a == nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "no open patch document: give the URI of one as the first argument")
	}
	block := func() (int, error) {
		n := 0
		if len(params.Arguments) > 1 {
			var f float64
			if json.Unmarshal(params.Arguments[1], &f) == nil {
				n = int(f)
			}
		}
		if n < 1 || n > len(a.patch.Blocks) {
			return 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("the block number must be between 1 and %d", len(a.patch.Blocks)))
		}
		return n, nil
	}
	switch params.Command {
	case CommandStatus:
		return a.report(), nil
	case CommandPreview:
		return snap.preview(a), nil
	case CommandApplyAll:
		switch {
		case a.state() == lifeEmpty:
			s.show(ctx, protocol.MessageTypeInfo, "fsrb: nothing to apply: "+a.noEdit())
			return nil, nil
		case a.state() == lifeApplied:
			blocks := plural(len(a.included()), "block")
			if len(a.skipped) > 0 {
				blocks += ", " + a.skippedList() + " skipped"
			}
			s.show(ctx, protocol.MessageTypeInfo, fmt.Sprintf("fsrb: nothing to apply: every block of the patch is applied already (%s); Revert all blocks undoes it", blocks))
			return nil, nil
		case a.state() == lifeSkipped:
			s.show(ctx, protocol.MessageTypeInfo, "fsrb: nothing to apply: every block of the patch is skipped; Include block puts one back")
			return nil, nil
		case !a.applies():
			n := len(a.plan.Problems.Errors())
			s.show(ctx, protocol.MessageTypeError, fmt.Sprintf("fsrb: nothing applied: the patch has %s; every block must validate", plural(n, "problem")))
			return nil, nil
		}
		return s.send(ctx, snap, params, a.plan, "fsrb: apply all blocks", "applied")
	case CommandApplyBlock:
		n, err := block()
		if err != nil {
			return nil, err
		}
		if a.blockState(n) == lifeApplied {
			s.show(ctx, protocol.MessageTypeInfo, fmt.Sprintf("fsrb: nothing to apply: block #%d is applied already (%s)", n, a.status(n)))
			return nil, nil
		}
		plan := snap.planBlock(a, n, false)
		if plan == nil || !plan.OK() {
			why := "it is incomplete"
			if plan != nil {
				why = plan.Problems.Errors()[0].Message
			}
			s.show(ctx, protocol.MessageTypeError, fmt.Sprintf("fsrb: block #%d does not apply: %s", n, why))
			return nil, nil
		}
		return s.send(ctx, snap, params, plan, fmt.Sprintf("fsrb: apply block #%d", n), "applied")
	case CommandSkipBlock, CommandIncludeBlock:
		n, err := block()
		if err != nil {
			return nil, err
		}
		return s.skipCommand(ctx, a, n, params.Command == CommandSkipBlock)
	case CommandRevertAll:
		if !a.reverts() {
			s.show(ctx, protocol.MessageTypeError, "fsrb: nothing reverted: "+notApplied(a))
			return nil, nil
		}
		plan := snap.revertPlan(a)
		if !plan.OK() {
			s.show(ctx, protocol.MessageTypeError, "fsrb: nothing reverted: "+firstError(plan))
			return nil, nil
		}
		return s.send(ctx, snap, params, plan, "fsrb: revert all blocks", "reverted")
	case CommandRevertBlock:
		n, err := block()
		if err != nil {
			return nil, err
		}
		if a.blockState(n) != lifeApplied {
			s.show(ctx, protocol.MessageTypeError, fmt.Sprintf("fsrb: nothing reverted: block #%d is not applied (%s)", n, a.status(n)))
			return nil, nil
		}
		plan := snap.revertPlan(a, n)
		if !plan.OK() {
			s.show(ctx, protocol.MessageTypeError, "fsrb: nothing reverted: "+firstError(plan))
			return nil, nil
		}
		return s.send(ctx, snap, params, plan, fmt.Sprintf("fsrb: revert block #%d", n), "reverted")
	}
	return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("unknown command %q", params.Command))
}

// hasFileOps reports whether an edit creates or deletes files or folders.
func hasFileOps(edit *protocol.WorkspaceEdit) bool {
	for _, dc := range edit.DocumentChanges {
		switch dc.(type) {
		case *protocol.CreateFile, *protocol.DeleteFile, *protocol.RenameFile:
			return true
		}
	}
	return false
}

// notApplied says which blocks keep a patch from being reverted.
func notApplied(a *analysis) string {
	var nums []string
	for _, b := range a.included() {
		if a.blockState(b.Number) != lifeApplied {
			nums = append(nums, fmt.Sprintf("#%d (%s)", b.Number, a.status(b.Number)))
		}
	}
	return fmt.Sprintf("every block must stand applied, and %s not: %s", pluralVerb(len(nums), "block is", "blocks are"), strings.Join(nums, ", "))
}

func pluralVerb(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func firstError(plan *core.Plan) string {
	errs := plan.Problems.Errors()
	if len(errs) == 0 {
		return "the patch changes nothing"
	}
	p := errs[0]
	msg := p.Message
	if p.Block > 0 && !p.MentionsBlock() {
		msg = fmt.Sprintf("block #%d: %s", p.Block, msg)
	}
	if p.Hint != "" {
		msg += " (" + p.Hint + ")"
	}
	return msg
}

// send turns a plan into one WorkspaceEdit, asks the client to apply it,
// and, once it says it did, takes the result as the server's view of the
// files (disk.go).
func (s *Server) send(ctx context.Context, snap *snapshot, params *protocol.ExecuteCommandParams, plan *core.Plan, label, done string) (any, error) {
	caps := s.capabilities()
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
	rpc.Release(ctx)
	finish := s.progress(ctx, params.WorkDoneToken, caps, plan, label)
	res, err := s.applyEdit(ctx, label, edit)
	finish()
	switch {
	case err != nil:
		return nil, err
	case res.Applied:
		s.recordOwnEdits(own)
		blocks := plan.BlockCount()
		if blocks == 0 {
			blocks = len(plan.Blocks)
		}
		prep := "to"
		if done != "applied" {
			prep = "in"
		}
		s.show(ctx, protocol.MessageTypeInfo, fmt.Sprintf("fsrb: %s %s %s %s%s", done, plural(blocks, "block"), prep, plural(len(plan.Files), "file"), fileOps(plan)))
		if params.Command == CommandApplyAll {
			s.showChanged(ctx, snap, plan)
		}
	default:
		why := ""
		if res.FailureReason != nil {
			why = *res.FailureReason
		}
		if why == "" {
			why = "no reason given"
		}
		msg := "fsrb: the editor did not apply the edit (" + why + ")"
		if caps.failureHandling == "transactional" || !hasFileOps(edit) && caps.failureHandling == "textOnlyTransactional" {
			msg += "; nothing was changed"
		} else {
			// VS Code, for one, performs file operations before it finds a
			// later one it refuses, and leaves them done.
			msg += "; some files may have changed: the patch's state shows what they hold"
		}
		s.show(ctx, protocol.MessageTypeWarning, msg)
	}
	return res, nil
}

// ownEdits is what an edit of plan leaves in the editor, file by file, for
// the server's view once the client says it applied it (disk.go).
func (s *snapshot) ownEdits(plan *core.Plan) map[string]*ownEdit {
	own := map[string]*ownEdit{}
	for _, fc := range plan.Files {
		w := &ownEdit{
			text: string(fc.Bytes()), deleted: fc.Action == core.ActionDelete, docVersion: -1, before: string(fc.Old),
			disk: s.view.stat(fc.Path),
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

// applyEdit sends workspace/applyEdit; a cancelled ctx sends the client
// $/cancelRequest for it.
func (s *Server) applyEdit(ctx context.Context, label string, edit *protocol.WorkspaceEdit) (*protocol.ApplyWorkspaceEditResult, error) {
	res, err := s.client.ApplyEdit(ctx, &protocol.ApplyWorkspaceEditParams{Label: &label, Edit: *edit})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		var rpc *jsonrpc2.Error
		if errors.As(err, &rpc) {
			res := &protocol.ApplyWorkspaceEditResult{}
			if rpc.Message != "" {
				res.FailureReason = &rpc.Message
			}
			return res, nil
		}
		return nil, err
	}
	if res == nil {
		res = &protocol.ApplyWorkspaceEditResult{}
	}
	return res, nil
}

func ptr[T any](v T) *T { return &v }

// args makes the arguments of a command. Strings and ints, which every
// lens of a streamed answer carries (its document and block), are written
// without reflection: a client asking for lenses after each chunk gets
// three or four a block.
func args(vs ...any) []protocol.LSPAny {
	out := make([]protocol.LSPAny, len(vs))
	for i, v := range vs {
		data, ok := plainArg(v)
		if !ok {
			var err error
			if data, err = json.Marshal(v); err != nil {
				panic(err) // strings and numbers
			}
		}
		out[i] = protocol.LSPAny(data)
	}
	return out
}

// plainArg writes an int or a string as JSON without reflection; false
// for any other type, and for a string that is not UTF-8, which
// json.Marshal writes with what is not replaced.
func plainArg(v any) ([]byte, bool) {
	switch v := v.(type) {
	case int:
		return strconv.AppendInt(nil, int64(v), 10), true
	case string:
		data, err := jsontext.AppendQuote(nil, v)
		return data, err == nil
	}
	return nil, false
}

func (s *Server) show(ctx context.Context, kind protocol.MessageType, msg string) {
	if err := s.client.ShowMessage(context.WithoutCancel(ctx), &protocol.ShowMessageParams{Type: kind, Message: msg}); err != nil {
		s.log.Info("showMessage", zap.Error(err))
	}
}

// progress reports work-done progress for a big patch when the client
// supports it, and returns the function that ends it.
func (s *Server) progress(ctx context.Context, token protocol.ProgressToken, caps clientCaps, plan *core.Plan, title string) func() {
	if plan.BlockCount() < progressBlocks || !caps.workDoneProgress && token == nil {
		return func() {}
	}
	ctx = context.WithoutCancel(ctx)
	if token == nil {
		token = protocol.String(fmt.Sprintf("fsrb-apply-%p", plan))
		if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: token}); err != nil {
			return func() {}
		}
	}
	report := func(v any) {
		data, err := protocol.Marshal(v)
		if err == nil {
			_ = s.client.Progress(ctx, &protocol.ProgressParams{Token: token, Value: protocol.LSPAny(data)})
		}
	}
	report(&protocol.WorkDoneProgressBegin{
		Kind:    "begin",
		Title:   title,
		Message: ptr(fmt.Sprintf("%s in %s", plural(plan.BlockCount(), "block"), plural(len(plan.Files), "file"))),
	})
	return func() { report(&protocol.WorkDoneProgressEnd{Kind: "end"}) }
}

// fileOps names the files an edit creates and deletes ("; created
// CHANGES.md; deleted old.txt"), for the message after it: an editor
// keeps text edits unsaved until the user saves, but some perform file
// operations at once, and one who discards the edit should know which
// files it made or took away.
func fileOps(plan *core.Plan) string {
	var created, deleted []string
	for _, fc := range plan.Files {
		switch {
		case fc.Action == core.ActionDelete:
			deleted = append(deleted, fc.Display)
		case fc.Action == core.ActionCreate && !fc.Existed:
			created = append(created, fc.Display)
		}
	}
	var b strings.Builder
	if len(created) > 0 {
		b.WriteString("; created " + strings.Join(created, ", "))
	}
	if len(deleted) > 0 {
		b.WriteString("; deleted " + strings.Join(deleted, ", "))
	}
	return b.String()
}
