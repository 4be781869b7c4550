package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/core/report"
	"github.com/fsrb/fsrb/pipeline"
)

// The tools' inputs: their JSON schemas are generated from these types.

type validateIn struct {
	Patch string `json:"patch" jsonschema:"the patch: SEARCH/REPLACE blocks (any dialect), *** Begin Patch, a unified diff, hashline blocks, or agents' edit tool calls as JSON"`
	Fuzzy bool   `json:"fuzzy,omitempty" jsonschema:"let blocks that match nowhere exactly match with tolerance (whitespace, indentation, typography)"`
}

type applyIn struct {
	Patch   string `json:"patch" jsonschema:"the patch: SEARCH/REPLACE blocks (any dialect), *** Begin Patch, a unified diff, hashline blocks, or agents' edit tool calls as JSON"`
	Fuzzy   bool   `json:"fuzzy,omitempty" jsonschema:"let blocks that match nowhere exactly match with tolerance (whitespace, indentation, typography)"`
	Partial bool   `json:"partial,omitempty" jsonschema:"write the blocks that validate (in one atomic commit) and skip the rest, instead of all or nothing"`
}

type editIn struct {
	Path       string `json:"path" jsonschema:"the file, relative to the workspace root or absolute inside it"`
	OldString  string `json:"old_string" jsonschema:"the exact text to replace (any part of the file, whitespace included); it must occur exactly once unless replace_all. Empty to create a new file"`
	NewString  string `json:"new_string" jsonschema:"the text to put in its place"`
	ReplaceAll bool   `json:"replace_all,omitempty" jsonschema:"replace every occurrence of old_string"`
}

type multiEditIn struct {
	Edits []editIn `json:"edits" jsonschema:"the edits, applied in order (edits of one file apply in sequence, each to the text the previous one left); all are written or none"`
}

type undoIn struct{}

type readIn struct {
	Path      string `json:"path" jsonschema:"the file, relative to the workspace root or absolute inside it"`
	Offset    int    `json:"offset,omitempty" jsonschema:"the first line to show, 1-based (default 1)"`
	Limit     int    `json:"limit,omitempty" jsonschema:"how many lines to show (default: all)"`
	Hashlines bool   `json:"hashlines,omitempty" jsonschema:"write each line as N:hhhh|text (line number and hash), as hashline SEARCH blocks quote lines"`
}

// readOut is read's structured content.
type readOut struct {
	Path       string               `json:"path"`
	StartLine  int                  `json:"start_line"`
	EndLine    int                  `json:"end_line"`
	TotalLines int                  `json:"total_lines"`
	Text       string               `json:"text"`
	Errors     []report.ProblemJSON `json:"errors"`
}

// undoOut is undo's structured content.
type undoOut struct {
	OK        bool                 `json:"ok"`
	Undone    string               `json:"undone,omitempty"` // the journal id of the commit reverted
	Restored  []string             `json:"restored"`
	Recreated []string             `json:"recreated"`
	Deleted   []string             `json:"deleted"`
	Errors    []report.ProblemJSON `json:"errors"`
}

func boolPtr(b bool) *bool { return &b }

// inputSchema is the schema the SDK infers for T, except that a required
// array is an array: the inference lets every slice be null (a nil slice
// marshals so), which tells a client it may send null where the tool
// needs its items.
func inputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	for _, name := range s.Required {
		if p := s.Properties[name]; p != nil && slices.Equal(p.Types, []string{"null", "array"}) {
			p.Type, p.Types = "array", nil
		}
	}
	return s
}

func (s *Server) addTools(srv *sdk.Server) {
	closed := boolPtr(false)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        "validate",
		Description: "Check a patch against the workspace without writing anything (a dry run). The answer is the report: what would change, or for each block why it does not apply (not found with the closest place, ambiguous with every place, missing file, ...). A patch that does not validate is an answer, not a tool error.",
		Annotations: &sdk.ToolAnnotations{Title: "Validate a patch", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: closed},
	}, s.validate)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        "apply",
		Description: "Apply a patch (SEARCH/REPLACE blocks in any dialect, *** Begin Patch, a unified diff, hashline blocks, or agents' edit tool-call JSON) to the workspace, all or nothing, journaled so that undo reverts it. A block whose change is already in its file is skipped with a note (when every block is, nothing is written and the call succeeds). When any block fails nothing is written and the result is an error with the report.",
		Annotations: &sdk.ToolAnnotations{Title: "Apply a patch", DestructiveHint: boolPtr(true), OpenWorldHint: closed},
	}, s.apply)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        "edit",
		Description: "Replace old_string by new_string in one file. old_string is any exact part of the file (not necessarily whole lines) and must occur exactly once, unless replace_all. CRLF, BOM and a missing final newline are kept. An empty old_string creates a file that does not exist. Undoable.",
		Annotations: &sdk.ToolAnnotations{Title: "Edit a file", DestructiveHint: boolPtr(true), OpenWorldHint: closed},
	}, s.edit)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        "multi_edit",
		Description: "Several str_replace edits, on one file or many, applied in order (edits of one file apply in sequence): all are written, or none. Each edit follows the rules of edit.",
		InputSchema: inputSchema[multiEditIn](),
		Annotations: &sdk.ToolAnnotations{Title: "Edit files", DestructiveHint: boolPtr(true), OpenWorldHint: closed},
	}, s.multiEdit)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        "undo",
		Description: "Revert the last change fsrb wrote under the workspace root (apply, edit, multi_edit, or the fsrb command), provided its files are unchanged since; calling it again reverts the change before.",
		Annotations: &sdk.ToolAnnotations{Title: "Undo the last change", DestructiveHint: boolPtr(true), OpenWorldHint: closed},
	}, s.undo)
	sdk.AddTool(srv, &sdk.Tool{
		Name:        "read",
		Description: "Read a file under the workspace root with its line numbers (N\\ttext), or with hashlines as N:hhhh|text lines for hashline SEARCH blocks. offset and limit select lines.",
		Annotations: &sdk.ToolAnnotations{Title: "Read a file", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: closed},
	}, s.read)
}

// runPatch parses (unless the patch is given) and runs a patch in the
// workspace that holds its paths, and answers with the report.
func (s *Server) runPatch(ctx context.Context, req *sdk.CallToolRequest, text string, built *core.Patch, opt pipeline.Options) (*sdk.CallToolResult, report.Report) {
	wss, ask := s.workspaces(ctx, req)
	if ask != nil {
		return ask, report.Report{}
	}
	var ws *pipeline.Workspace
	patch := built
	if patch == nil {
		patch = wss[0].Parse(text, "")
		ws = workspaceFor(wss, blockPaths(patch))
		if ws != wss[0] {
			patch = ws.Parse(text, "")
		}
	} else {
		ws = workspaceFor(wss, blockPaths(patch))
	}
	opt.SyntaxCheck = true
	opt.Stop = s.stop
	if !opt.DryRun {
		s.editing.Lock()
		defer s.editing.Unlock()
	}
	o, _ := ws.Run(patch, opt)
	if o.Written {
		s.mu.Lock()
		s.lastWS = ws
		s.mu.Unlock()
	}
	var out bytes.Buffer
	report.Human(&out, &out, o)
	if note := pipeline.MissingNote(o.Plan, ws.Root, s.origin(ws)); note != "" {
		fmt.Fprintln(&out, note)
	}
	if !o.Plan.OK() || o.CommitFailed {
		if f := patch.Format; f.Name != core.FormatSearchReplace && f.Name != core.FormatToolCalls || f.Forced {
			fmt.Fprintf(&out, "The patch was read as %s (%s).\n", f.Name, f.Reason)
		}
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.TrimRight(out.String(), "\n")}}}
	// Agents retry calls (a timeout, a lost answer): the one that
	// retried must be able to go on. An edit already in its file is
	// skipped with a note, as in the CLI, and the call is an error only
	// when the files do not hold the answer.
	res.IsError = !opt.DryRun && !o.Written && !o.OK()
	return res, report.Build(o)
}

func blockPaths(p *core.Patch) []string {
	out := make([]string, 0, len(p.Blocks))
	for _, b := range p.Blocks {
		out = append(out, b.Path)
	}
	return out
}

func (s *Server) validate(ctx context.Context, req *sdk.CallToolRequest, in validateIn) (*sdk.CallToolResult, report.Report, error) {
	res, r := s.runPatch(ctx, req, in.Patch, nil, pipeline.Options{DryRun: true, Fuzzy: in.Fuzzy, Switch: core.SwitchArgument})
	return res, r, nil
}

func (s *Server) apply(ctx context.Context, req *sdk.CallToolRequest, in applyIn) (*sdk.CallToolResult, report.Report, error) {
	res, r := s.runPatch(ctx, req, in.Patch, nil, pipeline.Options{Fuzzy: in.Fuzzy, Partial: in.Partial, Switch: core.SwitchArgument})
	return res, r, nil
}

func (s *Server) edit(ctx context.Context, req *sdk.CallToolRequest, in editIn) (*sdk.CallToolResult, report.Report, error) {
	return s.multiEdit(ctx, req, multiEditIn{Edits: []editIn{in}})
}

func (s *Server) multiEdit(ctx context.Context, req *sdk.CallToolRequest, in multiEditIn) (*sdk.CallToolResult, report.Report, error) {
	edits := make([]core.StrEdit, len(in.Edits))
	for i, e := range in.Edits {
		edits[i] = core.StrEdit{Path: e.Path, Old: e.OldString, New: e.NewString, ReplaceAll: e.ReplaceAll}
	}
	patch := core.StrEditPatch(edits)
	if len(edits) > 1 {
		for i := range patch.Blocks {
			patch.Blocks[i].Label = fmt.Sprintf("edit %d", i+1)
		}
	}
	res, r := s.runPatch(ctx, req, "", patch, pipeline.Options{})
	return res, r, nil
}

func (s *Server) undo(ctx context.Context, req *sdk.CallToolRequest, _ undoIn) (*sdk.CallToolResult, undoOut, error) {
	wss, ask := s.workspaces(ctx, req)
	if ask != nil {
		return ask, undoOut{}, nil
	}
	s.mu.Lock()
	ws := s.lastWS
	s.mu.Unlock()
	if ws == nil {
		ws = wss[0]
	}
	s.editing.Lock()
	defer s.editing.Unlock()
	out := undoOut{Restored: []string{}, Recreated: []string{}, Deleted: []string{}, Errors: []report.ProblemJSON{}}
	rep, err := commit.Undo(ws.Disk.Root, commit.Options{Stop: s.stop})
	if err != nil {
		p := core.Problem{Kind: core.KindCommit, Message: err.Error()}
		var conflict *commit.UndoConflictError
		switch {
		case errors.As(err, &conflict):
			p.Kind, p.Path = core.KindConflict, conflict.Path
			p.Hint = "the files changed since fsrb wrote them; edit them back by hand, or keep them"
		case errors.Is(err, commit.ErrNothingToUndo):
			p.Hint = "there is no change of fsrb's left to undo in this workspace"
		}
		out.Errors = append(out.Errors, report.Problem(p))
		return errorResult("[ERROR] Undo failed: "+err.Error(), p.Kind), out, nil
	}
	out.OK, out.Undone = true, rep.Undone
	out.Restored = append(out.Restored, rep.Written...)
	out.Recreated = append(out.Recreated, rep.Created...)
	out.Deleted = append(out.Deleted, rep.Deleted...)
	return textResult(rep.String()), out, nil
}

func (s *Server) read(ctx context.Context, req *sdk.CallToolRequest, in readIn) (*sdk.CallToolResult, readOut, error) {
	wss, ask := s.workspaces(ctx, req)
	if ask != nil {
		return ask, readOut{}, nil
	}
	ws := workspaceFor(wss, []string{in.Path})
	out := readOut{Path: in.Path, Errors: []report.ProblemJSON{}}
	fail := func(kind core.Kind, msg, hint string) (*sdk.CallToolResult, readOut, error) {
		out.Errors = append(out.Errors, report.Problem(core.Problem{Kind: kind, Path: in.Path, Message: msg, Hint: hint}))
		return errorResult(fmt.Sprintf("[ERROR] %s: %s", in.Path, msg), kind), out, nil
	}
	if in.Offset < 0 || in.Limit < 0 {
		return fail(core.KindMalformed, "offset and limit must not be negative", "give a 1-based offset and a line count")
	}
	data, kind, err := ws.ReadText(in.Path)
	if err != nil {
		msg := err.Error()
		if kind == core.KindMissingFile {
			msg += ". " + pipeline.RootNote(ws.Root, s.origin(ws))
		}
		return fail(kind, msg, "give the path of a text file inside the workspace root")
	}
	var all string
	if in.Hashlines {
		all = core.Hashlines(data)
	} else {
		all = numbered(data)
	}
	lines := strings.SplitAfter(all, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	out.TotalLines = len(lines)
	from := max(in.Offset, 1) - 1
	to := len(lines)
	if in.Limit > 0 {
		to = min(to, from+in.Limit)
	}
	if from > len(lines) || from == len(lines) && len(lines) > 0 {
		return fail(core.KindNotFound, fmt.Sprintf("offset %d is past the end: the file has %d lines", in.Offset, len(lines)), "give an offset within the file")
	}
	out.StartLine, out.EndLine = from+1, to
	out.Text = strings.Join(lines[from:to], "")
	return textResult(out.Text), out, nil
}

// numbered writes every line as "N\ttext" (the line without its ending).
func numbered(data []byte) string {
	var b strings.Builder
	b.Grow(len(data) + len(data)/8)
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	for n := 1; len(data) > 0; n++ {
		line := data
		rest := []byte(nil)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, rest = data[:i], data[i+1:]
		}
		fmt.Fprintf(&b, "%d\t%s\n", n, bytes.TrimSuffix(line, []byte("\r")))
		data = rest
	}
	return b.String()
}

func textResult(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

func errorResult(text string, kind core.Kind) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: text + " (kind: " + string(kind) + ")"}}}
}
