package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/lsp"
)

// openURI opens a document under any URI, with the language id an editor
// gives it.
func (c *testClient) openURI(u uri.URI, lang, text string) {
	c.t.Helper()
	c.mu.Lock()
	c.versions[u] = 1
	c.texts[u] = text
	c.mu.Unlock()
	err := c.notify(protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: protocol.LanguageKind(lang), Version: 1, Text: text,
	}})
	if err != nil {
		c.t.Fatal(err)
	}
	c.pullAfterChange(u)
}

const chatAnswer = "Sure, here is the change:\n\n```python\ncalc.py\n<<<<<<< SEARCH\ndef total(items):\n    return sum(items)\n=======\ndef total(items):\n    return sum(i.price for i in items)\n>>>>>>> REPLACE\n```\n\nThat should do it.\n"

// A chat answer in an editor's scratch buffer: never a file on disk, named
// by whatever URI the editor gives it (Neovim: the buffer's name under the
// working directory, escaped in lower case; VS Code: untitled:). Sent as
// Markdown, it is a patch document: its relative paths resolve against the
// workspace root, the block still arriving is information, and Apply all
// (the code action and the command, given the URI as the editor wrote it)
// edits the target and never the answer.
func TestChatAnswerInScratchBuffer(t *testing.T) {
	for _, tc := range []struct {
		name string
		uri  func(root string) string
	}{
		{"neovim codecompanion", func(root string) string {
			return strings.NewReplacer("[", "%5b", "]", "%5d", " ", "%20").Replace("file://" + filepath.ToSlash(root) + "/[CodeCompanion] 7")
		}},
		{"neovim avante", func(root string) string { return string(uri.File(filepath.Join(root, "AVANTE_RESULT"))) }},
		{"untitled", func(string) string { return "untitled:Untitled-1" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
			c := newClient(t, root)
			sent := tc.uri(root)
			u, err := uri.Parse(sent) // as the server decodes it
			if err != nil {
				t.Fatal(err)
			}
			cut := strings.Index(chatAnswer, "=======")
			c.openURI(uri.URI(sent), "markdown", chatAnswer[:cut])
			arriving := c.waitDiagnostics(u, 1)
			if got := errorsOf(arriving); len(got) != 0 {
				t.Errorf("while the answer arrives: errors %v", got)
			}
			if len(arriving) == 0 || arriving[0].Severity != protocol.DiagnosticSeverityInformation {
				t.Errorf("while the answer arrives: %+v, want one information", arriving)
			}
			c.mu.Lock()
			c.versions[u], c.texts[u] = c.versions[uri.URI(sent)], c.texts[uri.URI(sent)]
			c.mu.Unlock()
			v := c.replace(u, chatAnswer)
			if got := errorsOf(c.waitDiagnostics(u, v)); len(got) != 0 {
				t.Fatalf("the whole answer: errors %v", got)
			}
			actions := c.codeActions(u, protocol.Range{}, lsp.KindApplyAll)
			if len(actions) != 1 || actions[0].Edit == nil {
				t.Fatalf("apply all: %+v", actions)
			}
			for _, dc := range actions[0].Edit.DocumentChanges {
				td, ok := dc.(*protocol.TextDocumentEdit)
				if !ok || td.TextDocument.URI != c.uri("calc.py") {
					t.Errorf("apply all changes %+v, want calc.py only", dc)
				}
			}
			if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandApplyAll, Arguments: testArgs(sent)}, nil); err != nil {
				t.Fatal(err)
			}
			c.waitFor("the edit sent", func() bool { return len(c.applied) == 1 })
			c.locked(func() {
				for _, dc := range c.applied[0].Edit.DocumentChanges {
					if td, ok := dc.(*protocol.TextDocumentEdit); !ok || td.TextDocument.URI != c.uri("calc.py") {
						t.Errorf("fsrb.applyAll changes %+v, want calc.py only", dc)
					}
				}
			})
			entries, err := os.ReadDir(root)
			if err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 {
				t.Errorf("the workspace holds %v, want calc.py alone", entries)
			}
		})
	}
}

// A chat is mostly prose: an answer with no edit in it (an explanation, a
// code block that names no file, a shell command) shows nothing — no
// diagnostic, no lens — and the patch's state is `empty`, whose summary,
// "Apply all" and preview say plainly that the answer holds no edit,
// never "0 of 0 blocks" or a problem the editor does not show. A patch
// document (*.fsrb, the clipboard's) with no block keeps its error.
func TestChatAnswerWithNoEdit(t *testing.T) {
	const prose = "Sure. `total` sums the items; to sum the prices instead:\n\n```python\ndef total(items):\n    return sum(i.price for i in items)\n```\n\nThen run:\n\n```bash\npython -m pytest\n```\n"
	root := writeFiles(t, map[string]string{"calc.py": "def total(items):\n    return sum(items)\n"})
	c := newClient(t, root)
	sent := strings.NewReplacer("[", "%5b", "]", "%5d", " ", "%20").Replace("file://" + filepath.ToSlash(root) + "/[CodeCompanion] 3")
	u, err := uri.Parse(sent)
	if err != nil {
		t.Fatal(err)
	}
	c.openURI(uri.URI(sent), "markdown", prose)
	if got := c.waitDiagnostics(u, 1); len(got) != 0 {
		t.Errorf("a chat answer with no edit: diagnostics %s, want none", diagWords(got))
	}
	var lenses []protocol.CodeLens
	if err := c.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &lenses); err != nil {
		t.Fatal(err)
	}
	if len(lenses) != 0 {
		t.Errorf("a chat answer with no edit: lenses %+v, want none", lenses)
	}
	var st lsp.StatusReport
	if err := json.Unmarshal([]byte(c.command(lsp.CommandStatus, uri.URI(sent))), &st); err != nil {
		t.Fatal(err)
	}
	if st.State != "empty" || !strings.Contains(st.Summary, "no ") || strings.Contains(st.Summary, "0 of 0") || len(st.Blocks) != 0 {
		t.Errorf("fsrb.status: %+v, want state empty and a summary saying the answer holds no edit", st)
	}
	var pv lsp.PreviewReport
	if err := json.Unmarshal([]byte(c.command(lsp.CommandPreview, uri.URI(sent))), &pv); err != nil {
		t.Fatal(err)
	}
	if len(pv.Files) != 0 || !strings.Contains(pv.Message, st.Summary) {
		t.Errorf("fsrb.preview: %+v, want no file and a message saying %q", pv, st.Summary)
	}
	c.command(lsp.CommandApplyAll, uri.URI(sent))
	var said protocol.ShowMessageParams
	c.waitFor("Apply all's message", func() bool {
		for _, m := range c.messages {
			if strings.Contains(m.Message, "nothing to apply") {
				said = m
				return true
			}
		}
		return false
	})
	if said.Type != protocol.MessageTypeInfo || !strings.Contains(said.Message, st.Summary) || strings.Contains(said.Message, "problem") {
		t.Errorf("fsrb.applyAll said %+v, want information that the answer holds no edit", said)
	}
	c.locked(func() {
		if len(c.applied) != 0 {
			t.Errorf("fsrb.applyAll sent %d edits for an answer with no edit", len(c.applied))
		}
	})

	// The same text as a patch document: the patch holds no block, an error.
	text := prose
	p := c.open("answer.fsrb", &text)
	if got := errorsOf(c.waitDiagnostics(p, 1)); len(got) != 1 {
		t.Errorf("a patch document with no block: errors %v, want the one that says so", got)
	}
	if err := json.Unmarshal([]byte(c.command(lsp.CommandStatus, p)), &st); err != nil {
		t.Fatal(err)
	}
	if st.State != "empty" {
		t.Errorf("a patch document with no block: state %q, want empty", st.State)
	}
}

// The "Apply" lens on a lazy block after another of its file: the server
// asks whether the block applies alone only to offer the button
// (core.Options.Offer), and the command the button runs validates it in
// full and writes it. Lazy blocks pair by structure, so a block that
// rewrites a return an earlier block rewrote applies alone too; a
// SEARCH/REPLACE block that needs an earlier block's text gets its status
// and no button.
func TestLazyBlockApplyLensAlone(t *testing.T) {
	const file = "class Cart:\n    def total(self):\n        x = 1\n        return x\n\n    def count(self):\n        n = 2\n        return n\n"
	root := writeFiles(t, map[string]string{"cart.py": file})
	c := newClient(t, root)
	answer := "Changes.\n\n```python cart.py\n    def total(self):\n        # ... existing code ...\n        return x + 1\n```\n\n" +
		"```python cart.py\n    def count(self):\n        # ... existing code ...\n        return n + 1\n```\n\n" +
		"```python cart.py\n    def total(self):\n        # ... existing code ...\n        return x + 1  # once more\n```\n\n" +
		"cart.py\n<<<<<<< SEARCH\n        return x + 1  # once more\n=======\n        return x + 2\n>>>>>>> REPLACE\n"
	u := uri.URI("untitled:Untitled-2")
	c.openURI(u, "markdown", answer)
	c.waitDiagnostics(u, 1)
	titles := c.lensTitles(u)
	want := []string{"Apply all blocks", "#1 ", "Apply", "#2 ", "Apply", "#3 ", "Apply", "#4 "}
	ok := len(titles) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(titles[i], want[i])
	}
	if !ok {
		t.Fatalf("lenses %q: want %q", titles, want)
	}
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: lsp.CommandApplyBlock, Arguments: testArgs(string(u), 2)}, nil); err != nil {
		t.Fatal(err)
	}
	c.waitFor("the edit sent", func() bool { return len(c.applied) == 1 })
	c.locked(func() {
		changes := c.applied[0].Edit.DocumentChanges
		if len(changes) != 1 {
			t.Fatalf("Apply on block #2 sends %d changes, want one", len(changes))
		}
		td, ok := changes[0].(*protocol.TextDocumentEdit)
		if !ok || td.TextDocument.URI != c.uri("cart.py") {
			t.Fatalf("Apply on block #2 sends %+v, want an edit of cart.py", changes[0])
		}
		got, err := applyEdits(file, textEdits(td.Edits))
		if want := strings.Replace(file, "return n\n", "return n + 1\n", 1); err != nil || got != want {
			t.Errorf("Apply on block #2 leaves cart.py as\n%s\nwant\n%s (err %v)", got, want, err)
		}
	})
}

// A client that is asked to refresh its lenses gets them for a block
// that applies after another of its file checked alone already: the
// check runs right after the validation that read the same outlines,
// not a refresh later, when a streamed answer's next chunks have pushed
// them out of the processor's caches. The lens then shows what the check
// found.
func TestApplyLensCheckedAhead(t *testing.T) {
	const file = "class Cart:\n    def total(self):\n        x = 1\n        return x\n\n    def count(self):\n        n = 2\n        return n\n"
	root := writeFiles(t, map[string]string{"cart.py": file})
	c := startClient(t, root)
	c.initialize(`{"workspace": {"applyEdit": true, "codeLens": {"refreshSupport": true}}}`, nil)
	first := "Changes.\n\n```python cart.py\n    def total(self):\n        # ... existing code ...\n        return x + 1\n```\n\n"
	second := "```python cart.py\n    def count(self):\n        # ... existing code ...\n        return n + 1\n```\n"
	text := first
	u := c.open("answer.md", &text)
	c.waitDiagnostics(u, 1)
	c.waitDiagnostics(u, c.appendText(u, second))
	c.waitRefreshAfterPublish()
	if !c.session.CheckedAlone(u, 2) {
		t.Errorf("block #2, closed, applies after block #1 of its file: no check of it alone before the lenses are asked for")
	}
	if c.session.CheckedAlone(u, 1) {
		t.Errorf("block #1, the first of its file, was checked alone: its status says it")
	}
	titles := c.lensTitles(u)
	want := []string{"Apply all blocks", "#1 ", "Apply", "#2 ", "Apply"}
	ok := len(titles) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(titles[i], want[i])
	}
	if !ok {
		t.Errorf("lenses %q: want %q", titles, want)
	}
}

// lensTitles asks for u's code lenses and returns their titles, the Skip
// lenses left out.
func (c *testClient) lensTitles(u uri.URI) []string {
	c.t.Helper()
	var lenses []protocol.CodeLens
	if err := c.call(protocol.MethodTextDocumentCodeLens, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &lenses); err != nil {
		c.t.Fatal(err)
	}
	var titles []string
	for _, l := range lenses {
		if l.Command.Command != lsp.CommandSkipBlock {
			titles = append(titles, l.Command.Title)
		}
	}
	return titles
}
