package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/internal/testenv"
	"github.com/fsrb/fsrb/lsp"
)

// A scenario's @steps section plays a patch's life over the wire, one step
// a line, after the scenario's other checks. The client is an editor that
// applies every workspace/applyEdit to its own buffers and answers
// applied: true, but never tells the server about the target files: no
// didOpen, no didChange, no watch events (Neovim without the plugin's
// attachment, on Linux) unless a step says so.
//
//	apply-all             run fsrb.applyAll; the client must be sent one edit
//	apply-all-noop        run fsrb.applyAll; no edit may be sent
//	apply-block N         run fsrb.applyBlock N
//	revert-all            run fsrb.revertAll; one edit
//	revert-all-noop       run fsrb.revertAll; no edit may be sent
//	revert-block N        run fsrb.revertBlock N
//	apply-action "TITLE"  apply the edit of the code action whose title
//	                      starts with TITLE, then run its command
//	save                  write the client's buffers to disk (no event)
//	save-notify           the same, then didSave of the patch document
//	watch                 didChangeWatchedFiles for every file on disk
//	write FILE "TEXT"     write FILE on disk behind everyone's back
//	state STATE           fsrb.status says the patch is in STATE
//	block N STATE         ... and block N in STATE
//	errors N              the patch's diagnostics settle with N errors
//	code CODE N           ... and N diagnostics with that code
//	lens "SUBSTR"         a code lens title holds SUBSTR
//	no-lens "SUBSTR"      no code lens title holds SUBSTR
//	menu "TITLE" N        a code action request without a kind filter
//	                      lists N actions whose titles start with TITLE
//	source "TITLE" N      the same under only: ["source"]
//	message "SUBSTR"      the last window/showMessage holds SUBSTR
//	disk FILE "TEXT"      FILE holds exactly TEXT on disk
//	disk-gone FILE        FILE does not exist on disk
//	disk-original         every file of the archive holds its original bytes
//	                      (the patch aside), and no other file exists
//	buffer FILE "TEXT"    the client's buffer of FILE holds TEXT
//	pull N                textDocument/diagnostic answers N errors, and the
//	                      very diagnostics the client shows (pushed or pulled)
//	inlay "TEXT"          an inlay hint's label holds TEXT
//	no-inlay "TEXT"       no inlay hint's label holds TEXT
//	inlay-refresh         a workspace/inlayHint/refresh came since the last
//	                      inlay step
//	preview FILE OP       fsrb.preview lists FILE with operation OP
//	preview-files N       ... and N files in all
//	preview-none "TEXT"   fsrb.preview lists no file; its message holds TEXT
//	as-previewed          every file holds what the last preview proposed
//	                      (deleted: gone)
//	shown "A B"           the showDocument requests since the last apply-all
//	                      named these files, in order; the last took the focus
//
// A target file the client opens is synced from then on, as an editor
// attached to it syncs it: its buffer follows the edits it applies
// (didChange), a save sends didSave, and a write on disk leaves the buffer
// as it was (stale, until reloaded).
//
//	open FILE ["TEXT"]    didOpen of FILE with the client's buffer (or
//	                      TEXT: a buffer changed before the client synced it)
//	type FILE "TEXT"      the buffer of open FILE now holds TEXT (unsaved)
//	reload FILE           the buffer of open FILE takes the disk's text
//	skip N                run fsrb.skipBlock N; no edit may be sent, and the
//	                      answer lists block N as skipped
//	include N             run fsrb.includeBlock N; the same, not skipped
//	summary "TEXT"        fsrb.status sums the patch up as exactly TEXT
//	proposed FILE "TEXT"  the last preview proposes exactly TEXT for FILE
//	diagnostic "SUBSTR"   the patch's diagnostics settle with one whose
//	                      message holds SUBSTR
//	edit-patch "A" "B"    the editor replaces the first A of the patch by B
//	                      (an incremental change)
//	retype-patch          the editor sends the patch's whole text again
//	                      (a change without a range)
func runSteps(t *testing.T, sc *scenario, c *testClient, u uri.URI, steps string) {
	t.Helper()
	ed := &editor{root: sc.root, files: diskFiles(t, sc.root)}
	opened := map[string]bool{}
	c.setOnApply(func(p protocol.ApplyWorkspaceEditParams) protocol.ApplyWorkspaceEditResult {
		checkEOFPositions(t, ed, &p.Edit)
		before := map[string]string{}
		for k := range opened {
			before[k] = ed.files[k]
		}
		if err := ed.apply(&p.Edit); err != nil {
			return protocol.ApplyWorkspaceEditResult{FailureReason: ptr(err.Error())}
		}
		for k, text := range before {
			if ed.files[k] != text {
				c.replace(c.uri(k), ed.files[k])
			}
		}
		return protocol.ApplyWorkspaceEditResult{Applied: true}
	})
	var preview lsp.PreviewReport
	hintRefreshes, shownFrom := 0, 0
	for i, line := range strings.Split(steps, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		w := splitQuoted(t, line)
		where := fmt.Sprintf("@steps line %d (%s)", i+1, line)
		arg := func(k int) string {
			if len(w) <= k {
				t.Fatalf("%s: missing argument", where)
			}
			return w[k]
		}
		num := func(k int) int {
			n, err := strconv.Atoi(arg(k))
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			return n
		}
		switch w[0] {
		case "apply-all", "apply-all-noop", "revert-all", "revert-all-noop":
			c.locked(func() { shownFrom = len(c.shown) })
			cmd := map[string]string{"apply": lsp.CommandApplyAll, "revert": lsp.CommandRevertAll}[strings.SplitN(w[0], "-", 2)[0]]
			runCommand(t, c, where, cmd, !strings.HasSuffix(w[0], "-noop"), u)
		case "apply-block", "revert-block":
			cmd := map[string]string{"apply-block": lsp.CommandApplyBlock, "revert-block": lsp.CommandRevertBlock}[w[0]]
			runCommand(t, c, where, cmd, true, u, num(1))
		case "save", "save-notify":
			disk := diskFiles(t, sc.root)
			ed.save(t)
			for k := range opened {
				if text, ok := ed.files[k]; ok && disk[k] != text {
					if err := c.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri(k)}}); err != nil {
						t.Fatal(err)
					}
				}
			}
			if w[0] == "save-notify" {
				if err := c.notify(protocol.MethodTextDocumentDidSave, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
					t.Fatal(err)
				}
			}
		case "watch":
			var changes []protocol.FileEvent
			for k := range diskFiles(t, sc.root) {
				changes = append(changes, protocol.FileEvent{URI: c.uri(k), Type: protocol.FileChangeTypeChanged})
			}
			if err := c.notify(protocol.MethodWorkspaceDidChangeWatchedFiles, &protocol.DidChangeWatchedFilesParams{Changes: changes}); err != nil {
				t.Fatal(err)
			}
		case "write":
			full := filepath.Join(sc.root, filepath.FromSlash(arg(1)))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			// As the fsrb CLI and most tools write: a new file renamed
			// over the old, never a truncated one in between.
			if err := os.WriteFile(full+".new", []byte(arg(2)), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(full+".new", full); err != nil {
				t.Fatal(err)
			}
			if !opened[arg(1)] {
				ed.files[arg(1)] = arg(2)
			}
		case "open":
			if len(w) > 2 {
				ed.files[arg(1)] = arg(2)
			}
			text := ed.files[arg(1)]
			c.open(arg(1), &text)
			opened[arg(1)] = true
		case "type", "reload":
			if !opened[arg(1)] {
				t.Fatalf("%s: %s is not open", where, arg(1))
			}
			text := ""
			if w[0] == "type" {
				text = arg(2)
			} else if data, err := os.ReadFile(filepath.Join(sc.root, filepath.FromSlash(arg(1)))); err == nil {
				text = string(data)
			}
			ed.files[arg(1)] = text
			c.replace(c.uri(arg(1)), text)
		case "state", "block":
			var rep lsp.StatusReport
			if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandStatus, Arguments: testArgs(u)}, &rep); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if w[0] == "state" {
				if rep.State != arg(1) {
					t.Fatalf("%s: the patch is %s: %+v", where, rep.State, rep.Blocks)
				}
				continue
			}
			n := num(1)
			if n < 1 || n > len(rep.Blocks) || rep.Blocks[n-1].State != arg(2) {
				t.Fatalf("%s: blocks %+v", where, rep.Blocks)
			}
		case "errors", "code":
			want, code := 0, ""
			if w[0] == "errors" {
				want = num(1)
			} else {
				code, want = arg(1), num(2)
			}
			settle(t, c, u, where, func(diags []protocol.Diagnostic) bool {
				n := 0
				for _, d := range diags {
					if code == "" && d.Severity == protocol.DiagnosticSeverityError || code != "" && codeOf(d) == code {
						n++
					}
				}
				return n == want
			})
		case "lens", "no-lens":
			titles := lensTitles(t, c, u)
			has := strings.Contains(strings.Join(titles, "\n"), arg(1))
			if has != (w[0] == "lens") {
				t.Fatalf("%s: lenses %q", where, titles)
			}
		case "apply-action":
			// The client applies a code action's edit itself, then runs
			// its command, which is how the server hears of it.
			end := positionOf(sc.patchText, len(sc.patchText))
			var act *protocol.CodeAction
			for _, a := range c.codeActions(u, protocol.Range{End: end}) {
				if strings.HasPrefix(a.Title, arg(1)) {
					act = &a
					break
				}
			}
			if act == nil || act.Edit == nil {
				t.Fatalf("%s: no such action with an edit", where)
			}
			checkEOFPositions(t, ed, act.Edit)
			if err := ed.apply(act.Edit); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: act.Command.Command, Arguments: act.Command.Arguments}, nil); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
		case "menu", "source":
			var only []protocol.CodeActionKind
			if w[0] == "source" {
				only = []protocol.CodeActionKind{protocol.CodeActionKindSource}
			}
			end := positionOf(sc.patchText, len(sc.patchText))
			n := 0
			var titles []string
			for _, a := range c.codeActions(u, protocol.Range{End: end}, only...) {
				titles = append(titles, a.Title)
				if strings.HasPrefix(a.Title, arg(1)) {
					n++
				}
			}
			if n != num(2) {
				t.Fatalf("%s: %d such actions in %q", where, n, titles)
			}
		case "message":
			// The client records a message on its own goroutine: it may
			// come after the command's answer.
			c.waitFor(where, func() bool {
				return len(c.messages) > 0 && strings.Contains(c.messages[len(c.messages)-1].Message, arg(1))
			})
		case "disk":
			data, err := os.ReadFile(filepath.Join(sc.root, filepath.FromSlash(arg(1))))
			if err != nil || string(data) != arg(2) {
				t.Fatalf("%s: %s holds %q (%v)", where, arg(1), data, err)
			}
		case "disk-gone":
			if _, err := os.Stat(filepath.Join(sc.root, filepath.FromSlash(arg(1)))); err == nil {
				t.Fatalf("%s: %s exists", where, arg(1))
			}
		case "disk-original":
			got := diskFiles(t, sc.root)
			delete(got, sc.patchName)
			for k, v := range sc.files {
				if k == sc.patchName {
					continue
				}
				if got[k] != v {
					t.Errorf("%s: %s holds %q, want %q", where, k, got[k], v)
				}
				delete(got, k)
			}
			for k := range got {
				t.Errorf("%s: %s should not exist", where, k)
			}
		case "buffer":
			if got, ok := ed.files[arg(1)]; !ok || got != arg(2) {
				t.Fatalf("%s: the buffer of %s holds %q", where, arg(1), got)
			}
		case "pull":
			pulled := pullDiagnostics(t, c, u)
			if n := countErrors(pulled); n != num(1) {
				t.Fatalf("%s: %d errors pulled: %+v", where, n, pulled)
			}
			// The client's own view (pushed, or pulled after a refresh)
			// comes to the same.
			want, _ := json.MarshalIndent(pulled, "", "  ")
			settle(t, c, u, fmt.Sprintf("%s, the client to show what it pulled:\n%s\n", where, want), func(shown []protocol.Diagnostic) bool { return reflect.DeepEqual(pulled, shown) })
		case "inlay", "no-inlay":
			c.locked(func() { hintRefreshes = c.hintRefreshes })
			labels := inlayLabels(t, c, u, sc.patchText)
			has := strings.Contains(strings.Join(labels, "\n"), arg(1))
			if has != (w[0] == "inlay") {
				t.Fatalf("%s: inlay hints %q", where, labels)
			}
		case "inlay-refresh":
			c.waitFor(where, func() bool { return c.hintRefreshes > hintRefreshes })
		case "preview", "preview-files", "preview-none":
			preview = lsp.PreviewReport{}
			if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandPreview, Arguments: testArgs(u)}, &preview); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			switch w[0] {
			case "preview":
				found := false
				for _, f := range preview.Files {
					if f.Path == arg(1) && f.Operation == arg(2) && f.URI == c.uri(f.Path) {
						found = true
					}
				}
				if !found {
					t.Fatalf("%s: preview %+v", where, preview)
				}
			case "preview-files":
				if len(preview.Files) != num(1) {
					t.Fatalf("%s: preview %+v", where, preview)
				}
			case "preview-none":
				if len(preview.Files) != 0 || !strings.Contains(preview.Message, arg(1)) {
					t.Fatalf("%s: preview %+v", where, preview)
				}
			}
		case "as-previewed":
			if len(preview.Files) == 0 {
				t.Fatalf("%s: no preview before", where)
			}
			for _, f := range preview.Files {
				data, err := os.ReadFile(filepath.Join(sc.root, filepath.FromSlash(f.Path)))
				switch {
				case f.Operation == "delete" && err == nil:
					t.Errorf("%s: %s exists", where, f.Path)
				case f.Operation != "delete" && (err != nil || strings.TrimPrefix(string(data), "\uFEFF") != f.Proposed):
					t.Errorf("%s: %s holds %q (%v), the preview proposed %q", where, f.Path, data, err, f.Proposed)
				}
			}
		case "shown":
			want := strings.Fields(arg(1))
			var got []protocol.ShowDocumentParams
			c.waitFor(where, func() bool {
				got = append([]protocol.ShowDocumentParams(nil), c.shown[shownFrom:]...)
				return len(got) >= len(want)
			})
			var names []string
			for k, p := range got {
				names = append(names, ed.key(p.URI))
				if focus := p.TakeFocus != nil && *p.TakeFocus; focus != (k == len(got)-1) {
					t.Errorf("%s: showDocument %d of %d: takeFocus %v", where, k+1, len(got), focus)
				}
			}
			if strings.Join(names, " ") != strings.Join(want, " ") {
				t.Fatalf("%s: showDocument for %q", where, names)
			}
		case "skip", "include":
			cmd := map[string]string{"skip": lsp.CommandSkipBlock, "include": lsp.CommandIncludeBlock}[w[0]]
			var before int
			c.locked(func() { before = len(c.applied) })
			var rep lsp.StatusReport
			if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmd, Arguments: testArgs(u, num(1))}, &rep); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			c.locked(func() {
				if len(c.applied) != before {
					t.Fatalf("%s: an edit was sent", where)
				}
			})
			if slices.Contains(rep.Skipped, num(1)) != (w[0] == "skip") {
				t.Fatalf("%s: skipped %v", where, rep.Skipped)
			}
		case "summary":
			var rep lsp.StatusReport
			if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandStatus, Arguments: testArgs(u)}, &rep); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if rep.Summary != arg(1) {
				t.Fatalf("%s: the summary is %q", where, rep.Summary)
			}
		case "proposed":
			found := false
			for _, f := range preview.Files {
				if f.Path == arg(1) {
					found = true
					if f.Proposed != arg(2) {
						t.Fatalf("%s: %s proposed as %q", where, f.Path, f.Proposed)
					}
				}
			}
			if !found {
				t.Fatalf("%s: not in the preview %+v", where, preview)
			}
		case "diagnostic":
			settle(t, c, u, where, func(diags []protocol.Diagnostic) bool {
				for _, d := range diags {
					if strings.Contains(string(d.Message.(protocol.String)), arg(1)) {
						return true
					}
				}
				return false
			})
		case "edit-patch":
			c.edit(u, arg(1), arg(2))
			c.locked(func() { sc.patchText = c.texts[u] })
		case "retype-patch":
			var text string
			c.locked(func() { text = c.texts[u] })
			c.replace(u, text)
		default:
			t.Fatalf("%s: unknown step", where)
		}
	}
}

// checkEOFPositions fails on any text edit positioned on the line after a
// file's last line break, where clients disagree (Neovim 0.10 leaves an
// extra empty line for an insertion there): every client must produce the
// same bytes.
func checkEOFPositions(t *testing.T, ed *editor, we *protocol.WorkspaceEdit) {
	t.Helper()
	for _, dc := range we.DocumentChanges {
		te := docEdit(dc)
		if te == nil {
			continue
		}
		text, ok := ed.files[ed.key(te.TextDocument.URI)]
		text = strings.TrimPrefix(text, "\uFEFF")
		if !ok || !strings.HasSuffix(text, "\n") {
			continue
		}
		lines := uint32(strings.Count(text, "\n"))
		for _, e := range textEdits(te.Edits) {
			if e.Range.Start.Line >= lines || e.Range.End.Line >= lines {
				t.Errorf("edit of %s at %+v: past its last line (%d lines)", te.TextDocument.URI, e.Range, lines)
			}
		}
	}
}

// runCommand runs a command and checks whether it sent an edit.
func runCommand(t *testing.T, c *testClient, where, cmd string, wantEdit bool, args ...any) {
	t.Helper()
	var before int
	c.locked(func() { before = len(c.applied) })
	var res json.RawMessage
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmd, Arguments: testArgs(args...)}, &res); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var after int
	var msgs []protocol.ShowMessageParams
	c.locked(func() { after, msgs = len(c.applied), append(msgs, c.messages...) })
	switch {
	case wantEdit && after != before+1:
		t.Fatalf("%s: %d edits sent; messages %+v", where, after-before, msgs)
	case !wantEdit && after != before:
		t.Fatalf("%s: an edit was sent: %+v", where, c.applied[len(c.applied)-1])
	}
	if wantEdit && !strings.Contains(string(res), `"applied":true`) {
		t.Fatalf("%s: the client did not apply the edit: %s", where, res)
	}
}

// settle waits until the patch's latest diagnostics satisfy ok.
func settle(t *testing.T, c *testClient, u uri.URI, where string, ok func([]protocol.Diagnostic) bool) {
	t.Helper()
	var last []protocol.Diagnostic
	deadline := time.After(testenv.Timeout(t, 10*time.Second))
	for {
		c.mu.Lock()
		done := false
		if pubs := c.diags[u]; len(pubs) > 0 {
			last = pubs[len(pubs)-1].Diagnostics
			done = ok(last)
		}
		ch := c.changed
		c.mu.Unlock()
		if done {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			shown, _ := json.MarshalIndent(last, "", "  ")
			t.Fatalf("timed out waiting for %s; the client shows:\n%s", where, shown)
		}
	}
}

// pullDiagnostics asks for the patch's diagnostics as a client that pulls
// does, without a previous result id.
func pullDiagnostics(t *testing.T, c *testClient, u uri.URI) []protocol.Diagnostic {
	t.Helper()
	var raw json.RawMessage
	if err := c.call(protocol.MethodTextDocumentDiagnostic, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &raw); err != nil {
		t.Fatal(err)
	}
	var rep protocol.FullDocumentDiagnosticReport
	if err := protocol.Unmarshal(raw, &rep); err != nil || rep.Kind != "full" || rep.ResultID == nil {
		t.Fatalf("textDocument/diagnostic answered %s (%v)", raw, err)
	}
	return rep.Items
}

func countErrors(diags []protocol.Diagnostic) int {
	n := 0
	for _, d := range diags {
		if d.Severity == protocol.DiagnosticSeverityError {
			n++
		}
	}
	return n
}

// inlayLabels asks for the inlay hints of the whole patch.
func inlayLabels(t *testing.T, c *testClient, u uri.URI, text string) []string {
	t.Helper()
	var hints []protocol.InlayHint
	params := &protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: protocol.Range{End: positionOf(text, len(text))}}
	if err := c.call(protocol.MethodTextDocumentInlayHint, params, &hints); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, h := range hints {
		if l, ok := h.Label.(protocol.String); ok {
			out = append(out, string(l))
		}
	}
	return out
}

func lensTitles(t *testing.T, c *testClient, u uri.URI) []string {
	t.Helper()
	var lenses []protocol.CodeLens
	if err := c.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &lenses); err != nil {
		t.Fatal(err)
	}
	var titles []string
	for _, l := range lenses {
		titles = append(titles, l.Command.Title)
	}
	return titles
}

// diskFiles is every file under root, by slash path.
func diskFiles(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// save writes the editor's buffers to disk as ":wall" and "Save All" do:
// changed and created files written, deleted files and folders removed.
func (e *editor) save(t *testing.T) {
	t.Helper()
	disk := diskFiles(t, e.root)
	for k, v := range e.files {
		if old, ok := disk[k]; ok && old == v {
			continue
		}
		full := filepath.Join(e.root, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var gone []string
	for k := range disk {
		if _, ok := e.files[k]; !ok {
			gone = append(gone, k)
		}
	}
	sort.Strings(gone)
	for _, k := range gone {
		if err := os.Remove(filepath.Join(e.root, filepath.FromSlash(k))); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range e.removed {
		_ = os.Remove(filepath.Join(e.root, filepath.FromSlash(dir)))
	}
	e.removed = nil
}
