package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

// The tool-calls format: the JSON of agents' own edit tool calls, one
// call, a JSON array of them, or JSON lines. Each call becomes blocks of
// the patch, so that the whole batch validates and commits all or nothing
// like any patch. The shapes read:
//
//   - Claude Code Edit {file_path, old_string, new_string, replace_all}
//     and MultiEdit {file_path, edits: [{old_string, new_string, replace_all}]};
//     Write {file_path, content};
//   - Anthropic's text editor tool {command: str_replace | create | insert,
//     path, old_str, new_str, file_text, insert_line, insert_text};
//   - OpenAI's apply_patch_call {type, call_id, operation: {type:
//     create_file | update_file | delete_file, path, diff}}, the diff in
//     the *** Begin Patch body form;
//   - Gemini CLI's replace {file_path, old_string, new_string,
//     expected_replacements, allow_multiple} and write_file {file_path,
//     content};
//   - the MCP filesystem server's edit_file {path, edits: [{oldText,
//     newText}], dryRun}.
//
// Each may come wrapped as its tool-use envelope: {name, input} (Anthropic
// tool_use), {name, arguments} (an MCP tools/call, or OpenAI's
// function_call with arguments as a JSON string), {function: {name,
// arguments}} (OpenAI chat), {functionCall: {name, args}} (Gemini), or a
// JSON-RPC {method: "tools/call", params}. Replacements follow the
// str_replace rule (strreplace.go): old text is any exact substring and
// must occur exactly once unless replace_all (or expected_replacements).

// toolCall holds every field the known shapes use.
type toolCall struct {
	Type         string          `json:"type"`
	Name         string          `json:"name"`
	Method       string          `json:"method"`
	Input        json.RawMessage `json:"input"`
	Arguments    json.RawMessage `json:"arguments"` // an object, or a JSON string holding one
	Args         json.RawMessage `json:"args"`
	Params       json.RawMessage `json:"params"`
	Function     json.RawMessage `json:"function"`
	FunctionCall json.RawMessage `json:"functionCall"`

	FilePath             *string `json:"file_path"`
	Path                 *string `json:"path"`
	OldString            *string `json:"old_string"`
	NewString            *string `json:"new_string"`
	ReplaceAll           bool    `json:"replace_all"`
	ExpectedReplacements *int    `json:"expected_replacements"`
	AllowMultiple        *bool   `json:"allow_multiple"`
	Content              *string `json:"content"`
	Edits                []struct {
		OldString  *string `json:"old_string"`
		NewString  *string `json:"new_string"`
		ReplaceAll bool    `json:"replace_all"`
		OldText    *string `json:"oldText"`
		NewText    *string `json:"newText"`
	} `json:"edits"`
	DryRun bool `json:"dryRun"`

	Command    string  `json:"command"`
	OldStr     *string `json:"old_str"`
	NewStr     *string `json:"new_str"`
	FileText   *string `json:"file_text"`
	InsertLine *int    `json:"insert_line"`
	InsertText *string `json:"insert_text"`

	CallID    string `json:"call_id"`
	Operation *struct {
		Type string `json:"type"`
		Path string `json:"path"`
		Diff string `json:"diff"`
	} `json:"operation"`
}

// looksLikeJSON: the text's first non-blank character opens a JSON object
// or array (no other dialect starts so).
func looksLikeJSON(text string) bool {
	t := strings.TrimLeftFunc(text, unicode.IsSpace)
	return strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")
}

// rawValue is one JSON value of the text and where it sits.
type rawValue struct {
	data json.RawMessage
	span Span
}

// splitJSON reads the text as a sequence of JSON values (one value, JSON
// lines, or several), an array's elements each counting as one.
func splitJSON(text string) ([]rawValue, error) {
	var out []rawValue
	dec := json.NewDecoder(strings.NewReader(text))
	for {
		start := skipBlank(text, int(dec.InputOffset()))
		if start >= len(text) {
			return out, nil
		}
		if text[start] != '[' {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return out, jsonError(text, start, err)
			}
			out = append(out, rawValue{raw, Span{start, int(dec.InputOffset())}})
			continue
		}
		if _, err := dec.Token(); err != nil { // [
			return out, jsonError(text, start, err)
		}
		for dec.More() {
			at := skipBlank(text, int(dec.InputOffset()))
			if at < len(text) && text[at] == ',' {
				at = skipBlank(text, at+1)
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return out, jsonError(text, at, err)
			}
			out = append(out, rawValue{raw, Span{at, int(dec.InputOffset())}})
		}
		if _, err := dec.Token(); err != nil { // ]
			return out, jsonError(text, start, err)
		}
	}
}

func skipBlank(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

func jsonError(text string, at int, err error) error {
	if se, ok := err.(*json.SyntaxError); ok {
		at = int(se.Offset)
	}
	line := strings.Count(text[:min(at, len(text))], "\n") + 1
	return fmt.Errorf("line %d: %v", line, err)
}

// parseToolCalls reads the tool-calls format. ok is false when, not
// forced, the text is not JSON after all: it is then read as another
// format.
func parseToolCalls(text string, forced bool) (patch *Patch, ok bool) {
	values, err := splitJSON(text)
	patch = &Patch{Text: text}
	if err != nil {
		if !forced && len(values) == 0 {
			return nil, false
		}
		patch.Problems = append(patch.Problems, Problem{
			Kind: KindMalformed, Span: Span{0, len(text)},
			Message: "the tool calls are not valid JSON: " + err.Error(),
			Hint:    "give one JSON tool call, a JSON array of them, or one per line (JSON lines)",
		})
	}
	tp := &toolParser{patch: patch}
	var names []string
	for i, v := range values {
		name := tp.call(i+1, v)
		if name != "" && (len(names) == 0 || names[len(names)-1] != name) {
			names = append(names, name)
		}
	}
	patch.Format = Format{Name: FormatToolCalls, Forced: forced,
		Reason: fmt.Sprintf("the text is JSON: %s (%s)", plural(len(values), "tool call"), strings.Join(names, ", "))}
	if forced {
		patch.Format.Reason = "forced by --format " + FormatToolCalls
	}
	if len(patch.Blocks) == 0 && !patch.Problems.HasErrors() {
		patch.Problems = append(patch.Problems, Problem{
			Kind: KindNoBlocks, Span: Span{0, len(text)},
			Message: "the tool calls hold no edit", Hint: "give at least one edit tool call",
		})
	}
	patch.Problems.Sort()
	return patch, true
}

type toolParser struct {
	patch   *Patch
	section int // the last apply-patch section number given out
}

// unwrap takes a call out of its tool-use envelopes.
func unwrap(c *toolCall) error {
	for range 4 {
		var inner json.RawMessage
		switch {
		case c.Method == "tools/call" && len(c.Params) > 0:
			inner, c.Params, c.Method = c.Params, nil, ""
		case len(c.Function) > 0:
			inner, c.Function = c.Function, nil
		case len(c.FunctionCall) > 0:
			inner, c.FunctionCall = c.FunctionCall, nil
		case isObject(c.Input):
			inner = c.Input
		case isObject(c.Arguments):
			inner = c.Arguments
		case isString(c.Arguments):
			var s string
			if err := json.Unmarshal(c.Arguments, &s); err != nil {
				return err
			}
			inner = json.RawMessage(s)
		case isObject(c.Args):
			inner = c.Args
		default:
			return nil
		}
		name := c.Name
		*c = toolCall{}
		if err := json.Unmarshal(inner, c); err != nil {
			return fmt.Errorf("the tool's arguments: %v", err)
		}
		if c.Name == "" || c.FilePath != nil || c.Path != nil {
			c.Name = name
		}
	}
	return nil
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '{'
}

func isString(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && t[0] == '"'
}

// call turns the n-th call into blocks; it returns the tool's name for
// the format's reason.
func (tp *toolParser) call(n int, v rawValue) string {
	var c toolCall
	fail := func(name, msg, hint string) string {
		tp.patch.Problems = append(tp.patch.Problems, Problem{
			Kind: KindMalformed, Span: v.span, Message: fmt.Sprintf("call %d: %s", n, msg), Hint: hint,
		})
		return name
	}
	if !isObject(v.data) {
		return fail("", "a tool call must be a JSON object", "give each call as an object, as the agent's tool sends it")
	}
	if err := json.Unmarshal(v.data, &c); err != nil {
		return fail("", err.Error(), "give the fields the tool's own schema has")
	}
	if err := unwrap(&c); err != nil {
		return fail(c.Name, err.Error(), "give the fields the tool's own schema has")
	}
	add := func(name string, b Block) {
		b.Number = len(tp.patch.Blocks) + 1
		b.Span = v.span
		b.Dialect = DialectToolCall
		if b.Label == "" {
			b.Label = fmt.Sprintf("call %d (%s)", n, name)
		}
		tp.patch.Blocks = append(tp.patch.Blocks, b)
		tp.patch.Problems = append(tp.patch.Problems, strEditProblems([]Block{b})...)
	}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	filePath := str(c.FilePath)
	if filePath == "" {
		filePath = str(c.Path)
	}
	missing := func(name, fields string) string {
		return fail(name, fmt.Sprintf("%s needs %s", name, fields), "give every field the tool's schema requires")
	}
	switch {
	case c.Operation != nil:
		return tp.applyPatchCall(n, v, &c)

	case c.Command != "":
		name := "text editor " + c.Command
		if filePath == "" {
			return missing(name, "a path")
		}
		switch c.Command {
		case "str_replace":
			if c.OldStr == nil {
				return missing(name, "old_str")
			}
			if *c.OldStr == "" {
				return fail(name, "old_str is empty", "give the exact text to replace; to create a file, use the create command")
			}
			add(name, StrEditBlock(StrEdit{Path: filePath, Old: *c.OldStr, New: str(c.NewStr)}, 0))
		case "create":
			if c.FileText == nil {
				return missing(name, "file_text")
			}
			add(name, Block{Path: filePath, Op: OpCreate, Replace: lf(*c.FileText), Overwrite: true, CRLF: crlfThroughout(*c.FileText)})
		case "insert":
			text := c.InsertText
			if text == nil {
				text = c.NewStr // the text editor before 2025-07-28 named it new_str
			}
			if c.InsertLine == nil || text == nil {
				return missing(name, "insert_line and insert_text")
			}
			add(name, Block{Path: filePath, Op: OpInsert, Replace: lf(*text), InsertAfter: *c.InsertLine})
		default:
			return fail(name, fmt.Sprintf("the text editor command %q does not edit a file", c.Command),
				"give str_replace, create or insert calls only; view and undo_edit are not edits")
		}
		return name

	case len(c.Edits) > 0 && c.FilePath != nil: // Claude Code MultiEdit
		name := nameOr(c.Name, "MultiEdit")
		for i, e := range c.Edits {
			if e.OldString == nil || e.NewString == nil {
				return missing(name, fmt.Sprintf("old_string and new_string in edit %d", i+1))
			}
			b := StrEditBlock(StrEdit{Path: filePath, Old: *e.OldString, New: *e.NewString, ReplaceAll: e.ReplaceAll}, 0)
			b.Label = fmt.Sprintf("call %d (%s), edit %d", n, name, i+1)
			add(name, b)
		}
		return name

	case len(c.Edits) > 0: // the MCP filesystem server's edit_file
		name := nameOr(c.Name, "edit_file")
		if filePath == "" {
			return missing(name, "a path")
		}
		if c.DryRun {
			tp.patch.Problems = append(tp.patch.Problems, Problem{
				Kind: KindMalformed, Span: v.span,
				Message: fmt.Sprintf("call %d: %s asks for a dry run (dryRun: true), but the calls are applied together", n, name),
				Hint:    "drop dryRun and run fsrb with --dry-run (or the validate tool) to check the calls without writing",
			})
			return name
		}
		for i, e := range c.Edits {
			if e.OldText == nil || e.NewText == nil {
				return missing(name, fmt.Sprintf("oldText and newText in edit %d", i+1))
			}
			if *e.OldText == "" {
				return fail(name, fmt.Sprintf("oldText of edit %d is empty", i+1), "give the exact text to replace")
			}
			b := StrEditBlock(StrEdit{Path: filePath, Old: *e.OldText, New: *e.NewText}, 0)
			b.Label = fmt.Sprintf("call %d (%s), edit %d", n, name, i+1)
			add(name, b)
		}
		return name

	case c.OldString != nil: // Claude Code Edit, Gemini CLI replace
		name := nameOr(c.Name, "Edit")
		if (c.ExpectedReplacements != nil || c.AllowMultiple != nil) && c.Name == "" {
			name = "replace"
		}
		if filePath == "" || c.NewString == nil {
			return missing(name, "file_path and new_string")
		}
		// Gemini CLI's allow_multiple, which replaced its
		// expected_replacements: every place, at least one.
		all := c.ReplaceAll || c.AllowMultiple != nil && *c.AllowMultiple
		e := StrEdit{Path: filePath, Old: *c.OldString, New: *c.NewString, ReplaceAll: all}
		if c.ExpectedReplacements != nil {
			e.Expected = *c.ExpectedReplacements
			if e.Expected == 0 {
				e.Expected = -1 // reported by strEditProblems
			}
		}
		add(name, StrEditBlock(e, 0))
		return name

	case c.Content != nil && filePath != "": // Claude Code Write, Gemini CLI write_file
		name := nameOr(c.Name, "Write")
		add(name, Block{Path: filePath, Op: OpCreate, Replace: lf(*c.Content), Overwrite: true, CRLF: crlfThroughout(*c.Content)})
		return name
	}
	return fail(c.Name, "not an edit tool call fsrb knows (Claude Code Edit/MultiEdit/Write, Anthropic text editor, OpenAI apply_patch_call, Gemini replace/write_file, MCP edit_file)",
		"give the call's arguments as the agent's tool sends them")
}

func nameOr(name, def string) string {
	if name != "" {
		return name
	}
	return def
}

// applyPatchCall reads an OpenAI apply_patch_call: its operation is one
// section of the *** Begin Patch format, read by that format's parser.
func (tp *toolParser) applyPatchCall(n int, v rawValue, c *toolCall) string {
	op := c.Operation
	name := "apply_patch_call " + op.Type
	fail := func(msg, hint string) string {
		tp.patch.Problems = append(tp.patch.Problems, Problem{
			Kind: KindMalformed, Span: v.span, Message: fmt.Sprintf("call %d (%s): %s", n, name, msg), Hint: hint,
		})
		return name
	}
	if op.Path == "" {
		return fail("the operation has no path", "give operation.path")
	}
	diff := strings.ReplaceAll(op.Diff, "\r\n", "\n")
	if diff != "" && !strings.HasSuffix(diff, "\n") {
		diff += "\n"
	}
	var text string
	switch op.Type {
	case "create_file":
		var b strings.Builder
		for _, l := range strings.SplitAfter(diff, "\n") {
			if l == "" {
				continue
			}
			if !strings.HasPrefix(l, "+") {
				l = "+" + l // the content itself, not yet in diff form
			}
			b.WriteString(l)
		}
		text = apBegin + "\n*** Add File: " + op.Path + "\n" + b.String() + apEnd + "\n"
	case "update_file":
		if strings.HasPrefix(strings.TrimSpace(diff), apBegin) {
			return fail("the diff is a whole patch; an operation's diff holds only the hunks", "drop the *** Begin Patch and *** Update File lines")
		}
		text = apBegin + "\n*** Update File: " + op.Path + "\n" + diff + apEnd + "\n"
	case "delete_file":
		text = apBegin + "\n*** Delete File: " + op.Path + "\n" + apEnd + "\n"
	default:
		return fail(fmt.Sprintf("unknown operation type %q", op.Type), "use create_file, update_file or delete_file")
	}
	sub := parseApplyPatch(text, ParseOptions{})
	base := len(tp.patch.Blocks)
	sections := 0
	for _, b := range sub.Blocks {
		b.Number += base
		b.Span, b.Header, b.PathSpan, b.SearchMarker, b.SearchBody, b.Divider, b.ReplaceBody, b.ReplaceMarker = v.span, Span{}, Span{}, Span{}, Span{}, Span{}, Span{}, Span{}
		if b.Section > 0 {
			sections = max(sections, b.Section)
			b.Section += tp.section
		}
		b.Label = fmt.Sprintf("call %d (%s %s)", n, name, op.Path)
		if len(sub.Blocks) > 1 {
			b.Label += fmt.Sprintf(", hunk %d", b.Number-base)
		}
		tp.patch.Blocks = append(tp.patch.Blocks, b)
	}
	tp.section += sections
	for _, p := range sub.Problems {
		if p.Block > 0 {
			p.Block += base
		}
		p.Span = v.span
		p.Message = fmt.Sprintf("call %d (%s): %s", n, name, p.Message)
		tp.patch.Problems = append(tp.patch.Problems, p)
	}
	return name
}
