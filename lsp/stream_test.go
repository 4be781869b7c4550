package lsp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/lsp"
)

// streamFiles are the targets of streamAnswer: in a.py block 2 edits the
// line block 1 writes, so a.py's blocks depend on each other.
var streamFiles = map[string]string{
	"a.py": "def one():\n    return 1\n\n\ndef two():\n    return 2\n",
	"b.py": "x = 1\ny = 2\nz = 3\n",
	"c.py": "print('c')\n",
}

const streamAnswer = "Here is the plan.\n\n" +
	"```python\na.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 10\n>>>>>>> REPLACE\n```\n\n" +
	"Then b:\n\n" +
	"```python\nb.py\n<<<<<<< SEARCH\ny = 2\n=======\ny = 20\n>>>>>>> REPLACE\n```\n\n" +
	"And build on the first:\n\n" +
	"```python\na.py\n<<<<<<< SEARCH\n    return 10\n=======\n    return 100\n>>>>>>> REPLACE\n```\n\n" +
	"```python\nc.py\n<<<<<<< SEARCH\nprint('c')\n=======\nprint('see')\n>>>>>>> REPLACE\n```\n\n" +
	"```python\nb.py\n<<<<<<< SEARCH\nz = 3\n=======\nz = 30\n>>>>>>> REPLACE\n```\n\n" +
	"That is all.\n"

// TestStreamedAnswerAsFresh streams a chat answer in chunk by chunk, as a
// chat plugin does, and after every chunk compares what the server shows
// (diagnostics, fsrb.status, fsrb.preview) with a fresh analysis of the
// same text in a document the server never saw: taking over what the
// last analysis found must change nothing. Midway a target file changes,
// a block in the middle is edited, and an earlier block's path is.
func TestStreamedAnswerAsFresh(t *testing.T) {
	root := writeFiles(t, streamFiles)
	c := newClient(t, root)
	empty := ""
	u := c.open("answer.md", &empty)
	fresh := 0
	check := func(step string, v int32) []protocol.Diagnostic {
		t.Helper()
		got := c.waitDiagnostics(u, v)
		text := c.text(u)
		fresh++
		name := fmt.Sprintf("fresh%d.md", fresh)
		f := c.open(name, &text)
		want := c.waitDiagnostics(f, 1)
		if g, w := diagWords(got), diagWords(want); g != w {
			t.Fatalf("%s: diagnostics\n%s\nwant (fresh)\n%s\ntext:\n%s", step, g, w, text)
		}
		for _, cmd := range []string{lsp.CommandStatus, lsp.CommandPreview} {
			g, w := c.command(cmd, u), c.command(cmd, f)
			if g != w {
				t.Fatalf("%s: %s\n%s\nwant (fresh)\n%s", step, cmd, g, w)
			}
		}
		c.closeDoc(f)
		return got
	}
	// stream appends s in chunks; while every block validates, the block
	// still arriving is information, never an error.
	stream := func(s string, valid bool) {
		t.Helper()
		for len(s) > 0 {
			n := min(len(s), 7)
			v := c.appendText(u, s[:n])
			got := check(fmt.Sprintf("after %q", s[:n]), v)
			if errs := errorsOf(got); valid && len(errs) != 0 {
				t.Fatalf("after %q: errors %v while the answer streams in", s[:n], errs)
			}
			s = s[n:]
		}
	}
	third := strings.Index(streamAnswer, "And build")
	stream(streamAnswer[:third], true)
	// A target changes while the answer streams: b.py's block 2 no longer
	// finds its text.
	b := "x = 1\ny = 2 # edited\nz = 3\n"
	c.open("b.py", &b)
	check("b.py edited", c.edit(u, "Then b:", "Then b!"))
	stream(streamAnswer[third:], false)
	bu := c.uri("b.py")
	check("b.py back", func() int32 { c.edit(bu, "y = 2 # edited", "y = 2"); return c.edit(u, "Then b!", "Then b:") }())
	// A block in the middle is edited: a.py's second block then misses.
	check("block 1 edited", c.edit(u, "    return 10\n>>>>>>>", "    return 11\n>>>>>>>"))
	check("block 1 back", c.edit(u, "    return 11\n>>>>>>>", "    return 10\n>>>>>>>"))
	// An earlier block's path is edited, then restored.
	check("path edited", c.edit(u, "```python\nc.py", "```python\nb.py"))
	check("path back", c.edit(u, "```python\nb.py\n<<<<<<< SEARCH\nprint", "```python\nc.py\n<<<<<<< SEARCH\nprint"))
	if errs := errorsOf(c.latest(u)); len(errs) != 0 {
		t.Errorf("the whole answer has errors: %v", errs)
	}
}

// diagWords is a document's diagnostics as text, for comparing.
func diagWords(ds []protocol.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		data, _ := json.Marshal(d)
		b.Write(data)
		b.WriteByte('\n')
	}
	return b.String()
}

// command runs cmd on document u and returns its answer as JSON.
func (c *testClient) command(cmd string, u uri.URI) string {
	c.t.Helper()
	var raw json.RawMessage
	if err := c.call(protocol.MethodWorkspaceExecuteCommand, &protocol.ExecuteCommandParams{Command: cmd, Arguments: testArgs(u)}, &raw); err != nil {
		c.t.Fatal(err)
	}
	return string(raw)
}

// text is the client's text of an open document.
func (c *testClient) text(u uri.URI) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.texts[u]
}

func (c *testClient) closeDoc(u uri.URI) {
	c.t.Helper()
	if err := c.notify(protocol.MethodTextDocumentDidClose, &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		c.t.Fatal(err)
	}
}
