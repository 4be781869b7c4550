package mcp_test

//lint:file-ignore SA1019 the tests play a client that sends MCP roots (server.go)

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsrb/fsrb/internal/testenv"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The tests drive the real binaries ("fsrb mcp", which execs the
// fsrb-mcp built beside it, as installed) through the SDK's own client
// over a stdio pipe, as an agent's client does.

var fsrbBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fsrb-mcp-test")
	if err != nil {
		panic(err)
	}
	fsrbBin = filepath.Join(dir, "fsrb")
	if out, err := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "../cmd/fsrb", "../cmd/fsrb-mcp").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building fsrb and fsrb-mcp: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is one "fsrb mcp" process and a client session on it.
type server struct {
	t     testing.TB
	dir   string // the working directory of the server
	state string // XDG_STATE_HOME: the journal
	cs    *sdk.ClientSession
}

type startOpt struct {
	args  []string // after "mcp"
	roots []string // the client's MCP roots (folders)
	dir   string   // the working directory; a new temp dir when ""
	proto string   // the protocol version the client asks for; "" for the SDK's latest
}

func start(t testing.TB, o startOpt) *server {
	t.Helper()
	s := &server{t: t, dir: o.dir, state: t.TempDir()}
	if s.dir == "" {
		s.dir = t.TempDir()
	}
	cmd := exec.Command(fsrbBin, append([]string{"mcp"}, o.args...)...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+s.state)
	client := sdk.NewClient(&sdk.Implementation{Name: "fsrb-test", Version: "1"}, nil)
	for _, r := range o.roots {
		client.AddRoots(&sdk.Root{URI: "file://" + r, Name: filepath.Base(r)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Timeout(t, 30*time.Second))
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, &sdk.ClientSessionOptions{ProtocolVersion: o.proto})
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	s.cs = cs
	return s
}

func (s *server) write(name, content string) {
	s.t.Helper()
	p := filepath.Join(s.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

func (s *server) read(name string) string {
	s.t.Helper()
	data, err := os.ReadFile(filepath.Join(s.dir, name))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(data)
}

// result is a tool's answer, decoded.
type result struct {
	isError bool
	text    string
	data    map[string]any // structuredContent
}

func (s *server) call(name string, args map[string]any) result {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testenv.Timeout(s.t, 30*time.Second))
	defer cancel()
	res, err := s.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		s.t.Fatalf("%s: %v", name, err)
	}
	var r result
	r.isError = res.IsError
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			r.text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, &r.data); err != nil {
			s.t.Fatalf("%s: structured content: %v", name, err)
		}
	}
	return r
}

// kinds lists the kinds of a report's errors.
func (r result) kinds() []string {
	var out []string
	errs, _ := r.data["errors"].([]any)
	for _, e := range errs {
		out = append(out, e.(map[string]any)["kind"].(string))
	}
	return out
}

func (r result) firstError() map[string]any {
	errs, _ := r.data["errors"].([]any)
	if len(errs) == 0 {
		return nil
	}
	return errs[0].(map[string]any)
}

func wantKinds(t *testing.T, r result, want ...string) {
	t.Helper()
	if got := strings.Join(r.kinds(), ","); got != strings.Join(want, ",") {
		t.Fatalf("error kinds = %q, want %q\ntext: %s", got, strings.Join(want, ","), r.text)
	}
}

func wantFile(t *testing.T, s *server, name, want string) {
	t.Helper()
	if got := s.read(name); got != want {
		t.Fatalf("%s = %q, want %q", name, got, want)
	}
}

const patchHello = "a.txt\n<<<<<<< SEARCH\nhello\n=======\nhi\n>>>>>>> REPLACE\n"

func TestInitializeAndTools(t *testing.T) {
	s := start(t, startOpt{})
	info := s.cs.InitializeResult().ServerInfo
	if info.Name != "fsrb" || info.Version == "" {
		t.Fatalf("server info = %+v", info)
	}
	tools, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type hints struct{ readOnly, destructive, idempotent bool }
	want := map[string]hints{
		"validate": {readOnly: true, idempotent: true}, "read": {readOnly: true, idempotent: true},
		"apply": {destructive: true}, "edit": {destructive: true}, "multi_edit": {destructive: true}, "undo": {destructive: true},
	}
	for _, tool := range tools.Tools {
		h, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		delete(want, tool.Name)
		a := tool.Annotations
		if a == nil || a.ReadOnlyHint != h.readOnly || a.IdempotentHint != h.idempotent || a.DestructiveHint == nil && !h.readOnly || a.DestructiveHint != nil && *a.DestructiveHint != h.destructive {
			t.Errorf("%s: annotations %+v, want %+v", tool.Name, a, h)
		}
		if tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s: no input or output schema", tool.Name)
		}
		if tool.Name == "multi_edit" {
			in, _ := json.Marshal(tool.InputSchema)
			var schema struct {
				Properties map[string]struct {
					Type any `json:"type"`
				} `json:"properties"`
				Required []string `json:"required"`
			}
			json.Unmarshal(in, &schema)
			if typ := schema.Properties["edits"].Type; typ != "array" || !slices.Contains(schema.Required, "edits") {
				t.Errorf("multi_edit: edits has type %v (required %v), want \"array\", required: %s", typ, schema.Required, in)
			}
		}
	}
	if len(want) > 0 {
		t.Errorf("missing tools: %v", want)
	}
}

func TestValidate(t *testing.T) {
	s := start(t, startOpt{})
	s.write("a.txt", "hello\nworld\n")
	r := s.call("validate", map[string]any{"patch": patchHello})
	if r.isError || r.data["ok"] != true || r.data["dry_run"] != true || r.data["written"] != false {
		t.Fatalf("validate: %+v", r)
	}
	if !strings.Contains(r.text, "Would save changes to a.txt") || !strings.Contains(r.text, "[DRY RUN]") {
		t.Fatalf("text: %s", r.text)
	}
	wantFile(t, s, "a.txt", "hello\nworld\n")
	// A patch that does not validate is the answer, not a tool error.
	r = s.call("validate", map[string]any{"patch": strings.Replace(patchHello, "hello", "nope", 1)})
	if r.isError || r.data["ok"] != false {
		t.Fatalf("validate of a failing patch: %+v", r)
	}
	wantKinds(t, r, "not-found")
	if !strings.Contains(r.text, "SEARCH block not found") {
		t.Fatalf("text: %s", r.text)
	}
}

// TestFuzzyHintSpeaksMCP: a hint that suggests the fuzzy ladder names the
// tools' argument, not the CLI's flag, in the text and in the JSON.
func TestFuzzyHintSpeaksMCP(t *testing.T) {
	s := start(t, startOpt{})
	s.write("a.txt", "hello\nworld\n")
	for _, tool := range []string{"validate", "apply"} {
		r := s.call(tool, map[string]any{"patch": strings.Replace(patchHello, "hello", "helo", 1)})
		wantKinds(t, r, "not-found")
		hint, _ := r.firstError()["hint"].(string)
		if !strings.HasSuffix(hint, "or call again with fuzzy: true") || strings.Contains(r.text, "--fuzzy") {
			t.Errorf("%s: hint %q; text:\n%s", tool, hint, r.text)
		}
	}
	wantFile(t, s, "a.txt", "hello\nworld\n")
}

func TestApplyAndUndo(t *testing.T) {
	s := start(t, startOpt{})
	s.write("a.txt", "hello\nworld\n")
	s.write("b.txt", "one\n")
	// All or nothing: the second block fails, the first is not written.
	bad := patchHello + "b.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n"
	r := s.call("apply", map[string]any{"patch": bad})
	if !r.isError || r.data["written"] != false {
		t.Fatalf("apply of a failing patch: %+v", r)
	}
	wantKinds(t, r, "not-found")
	wantFile(t, s, "a.txt", "hello\nworld\n")
	// partial writes what validates.
	r = s.call("apply", map[string]any{"patch": bad, "partial": true})
	if r.data["written"] != true {
		t.Fatalf("partial: %+v", r)
	}
	wantFile(t, s, "a.txt", "hi\nworld\n")
	r = s.call("undo", nil)
	if r.isError || r.data["ok"] != true {
		t.Fatalf("undo: %+v", r)
	}
	wantFile(t, s, "a.txt", "hello\nworld\n")
	r = s.call("apply", map[string]any{"patch": patchHello})
	if r.isError || r.data["ok"] != true || !strings.Contains(r.text, "Saved changes to a.txt") {
		t.Fatalf("apply: %+v", r)
	}
	wantFile(t, s, "a.txt", "hi\nworld\n")
	// Undo refuses when the file changed since.
	s.write("a.txt", "hi\nworld\nmore\n")
	r = s.call("undo", nil)
	if !r.isError || r.data["ok"] != false || r.firstError()["kind"] != "conflict" {
		t.Fatalf("undo after a change: %+v", r)
	}
	wantFile(t, s, "a.txt", "hi\nworld\nmore\n")
	s.write("a.txt", "hi\nworld\n")
	if r = s.call("undo", nil); r.isError {
		t.Fatalf("undo: %+v", r)
	}
	wantFile(t, s, "a.txt", "hello\nworld\n")
}

func TestEdit(t *testing.T) {
	s := start(t, startOpt{})
	s.write("a.go", "func f() {\n\treturn 1\n}\n\nfunc g() {\n\treturn 1\n}\n")
	// A substring, not whole lines.
	r := s.call("edit", map[string]any{"path": "a.go", "old_string": "f() {\n\treturn 1", "new_string": "f() {\n\treturn 2"})
	if r.isError || r.data["ok"] != true {
		t.Fatalf("edit: %+v", r)
	}
	wantFile(t, s, "a.go", "func f() {\n\treturn 2\n}\n\nfunc g() {\n\treturn 1\n}\n")
	// Ambiguous: how many places, and their lines.
	r = s.call("edit", map[string]any{"path": "a.go", "old_string": "return", "new_string": "return -"})
	if !r.isError {
		t.Fatalf("ambiguous edit: %+v", r)
	}
	wantKinds(t, r, "ambiguous")
	if msg := r.firstError()["message"].(string); !strings.Contains(msg, "occurs 2 times") || !strings.Contains(msg, "lines 2, 6") {
		t.Fatalf("message: %s", msg)
	}
	if !strings.Contains(r.text, "lines 2, 6") {
		t.Fatalf("text: %s", r.text)
	}
	// replace_all.
	r = s.call("edit", map[string]any{"path": "a.go", "old_string": "return", "new_string": "return -", "replace_all": true})
	if r.isError {
		t.Fatalf("replace_all: %+v", r)
	}
	wantFile(t, s, "a.go", "func f() {\n\treturn - 2\n}\n\nfunc g() {\n\treturn - 1\n}\n")
	// Not found: the closest place.
	r = s.call("edit", map[string]any{"path": "a.go", "old_string": "func h() {", "new_string": "func k() {"})
	wantKinds(t, r, "not-found")
	if !r.isError || !strings.Contains(r.firstError()["message"].(string), "closest place is line") {
		t.Fatalf("not found: %+v", r)
	}
	// Already applied: a successful no-op (TestEditTwice).
	r = s.call("edit", map[string]any{"path": "a.go", "old_string": "return 2", "new_string": "return - 2"})
	wantApplied(t, r)
	// Create with an empty old_string; refused on an existing file.
	r = s.call("edit", map[string]any{"path": "new/dir/n.txt", "old_string": "", "new_string": "fresh\n"})
	if r.isError {
		t.Fatalf("create: %+v", r)
	}
	wantFile(t, s, "new/dir/n.txt", "fresh\n")
	r = s.call("edit", map[string]any{"path": "a.go", "old_string": "", "new_string": "x"})
	wantKinds(t, r, "file-exists")
	r = s.call("edit", map[string]any{"path": "missing.txt", "old_string": "a", "new_string": "b"})
	wantKinds(t, r, "missing-file")
	r = s.call("edit", map[string]any{"path": "a.go", "old_string": "g()", "new_string": "g()"})
	wantKinds(t, r, "empty-block")
	// A new_string that stands for code it left out is refused, and one
	// whose placeholder line ends in fsrb:keep is written literally.
	s.write("p.py", "def f():\n    a()\n    b()\n")
	r = s.call("edit", map[string]any{"path": "p.py", "old_string": "    a()\n    b()\n", "new_string": "    a()\n    # ... existing code ...\n"})
	wantKinds(t, r, "placeholder")
	wantFile(t, s, "p.py", "def f():\n    a()\n    b()\n")
	r = s.call("edit", map[string]any{"path": "p.py", "old_string": "    b()\n", "new_string": "    # ... existing code ... fsrb:keep\n"})
	if r.isError {
		t.Fatalf("fsrb:keep: %s", r.text)
	}
	wantFile(t, s, "p.py", "def f():\n    a()\n    # ... existing code ...\n")
}

func TestEditKeepsCRLFBOMAndFinalNewline(t *testing.T) {
	s := start(t, startOpt{})
	s.write("w.txt", "\uFEFFone\r\ntwo\r\nthree")
	r := s.call("edit", map[string]any{"path": "w.txt", "old_string": "one\ntwo", "new_string": "one\nuno\ndos"})
	if r.isError {
		t.Fatalf("edit: %+v", r)
	}
	wantFile(t, s, "w.txt", "\uFEFFone\r\nuno\r\ndos\r\nthree")
	r = s.call("edit", map[string]any{"path": "w.txt", "old_string": "three", "new_string": "tres"})
	if r.isError {
		t.Fatalf("edit: %+v", r)
	}
	wantFile(t, s, "w.txt", "\uFEFFone\r\nuno\r\ndos\r\ntres")
	// CRLF text in old_string matches too.
	r = s.call("edit", map[string]any{"path": "w.txt", "old_string": "uno\r\ndos", "new_string": "1\r\n2"})
	if r.isError {
		t.Fatalf("edit: %+v", r)
	}
	wantFile(t, s, "w.txt", "\uFEFFone\r\n1\r\n2\r\ntres")
	// A file created from CRLF text keeps CRLF; from LF text, LF.
	for name, text := range map[string]string{"crlf.txt": "a\r\nb\r\n", "lf.txt": "a\nb\n"} {
		if r := s.call("edit", map[string]any{"path": name, "old_string": "", "new_string": text}); r.isError {
			t.Fatalf("edit creating %s: %+v", name, r)
		}
		wantFile(t, s, name, text)
	}
}

func TestMultiEdit(t *testing.T) {
	s := start(t, startOpt{})
	s.write("a.txt", "alpha beta\n")
	s.write("b.txt", "gamma\n")
	edits := []any{
		map[string]any{"path": "a.txt", "old_string": "alpha", "new_string": "ALPHA"},
		map[string]any{"path": "a.txt", "old_string": "ALPHA beta", "new_string": "ALPHA BETA"}, // sees the first edit
		map[string]any{"path": "b.txt", "old_string": "delta", "new_string": "DELTA"},           // fails
	}
	r := s.call("multi_edit", map[string]any{"edits": edits})
	if !r.isError {
		t.Fatalf("multi_edit with a failing edit: %+v", r)
	}
	wantKinds(t, r, "not-found")
	if e := r.firstError(); e["block"] != float64(3) || !strings.HasPrefix(e["message"].(string), "edit 3: ") {
		t.Fatalf("error: %v", e)
	}
	wantFile(t, s, "a.txt", "alpha beta\n")
	edits[2] = map[string]any{"path": "b.txt", "old_string": "gamma", "new_string": "GAMMA"}
	r = s.call("multi_edit", map[string]any{"edits": edits})
	if r.isError {
		t.Fatalf("multi_edit: %+v", r)
	}
	wantFile(t, s, "a.txt", "ALPHA BETA\n")
	wantFile(t, s, "b.txt", "GAMMA\n")
	// One undo reverts the whole call.
	if r = s.call("undo", map[string]any{}); r.isError {
		t.Fatalf("undo: %+v", r)
	}
	wantFile(t, s, "a.txt", "alpha beta\n")
	wantFile(t, s, "b.txt", "gamma\n")
}

func TestRead(t *testing.T) {
	s := start(t, startOpt{})
	s.write("r.txt", "one\r\ntwo\nthree\n")
	r := s.call("read", map[string]any{"path": "r.txt"})
	if r.isError || r.text != "1\tone\n2\ttwo\n3\tthree\n" || r.data["total_lines"] != float64(3) {
		t.Fatalf("read: %+v", r)
	}
	r = s.call("read", map[string]any{"path": "r.txt", "offset": 2, "limit": 1})
	if r.text != "2\ttwo\n" || r.data["start_line"] != float64(2) || r.data["end_line"] != float64(2) {
		t.Fatalf("read with offset: %+v", r)
	}
	cli := exec.Command(fsrbBin, "read", "--hashlines", filepath.Join(s.dir, "r.txt"))
	cli.Dir = s.dir
	want, err := cli.Output()
	if err != nil {
		t.Fatal(err)
	}
	r = s.call("read", map[string]any{"path": "r.txt", "hashlines": true})
	if r.text != string(want) {
		t.Fatalf("hashlines = %q, want fsrb read --hashlines: %q", r.text, want)
	}
	r = s.call("read", map[string]any{"path": "nope.txt"})
	if !r.isError || r.firstError()["kind"] != "missing-file" {
		t.Fatalf("read of a missing file: %+v", r)
	}
}

// TestPathEscapes: every tool confines paths as the CLI does, and writes
// nothing on a refusal.
func TestPathEscapes(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644)
	s := start(t, startOpt{})
	s.write("ok.txt", "fine\n")
	if err := os.Symlink(outside, filepath.Join(s.dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"../escape.txt", filepath.Join(outside, "secret.txt"), "link/secret.txt", "/etc/passwd"} {
		r := s.call("edit", map[string]any{"path": p, "old_string": "secret", "new_string": "pwned"})
		if !r.isError || r.firstError()["kind"] != "outside-root" {
			t.Errorf("edit %s: %+v", p, r)
		}
		r = s.call("edit", map[string]any{"path": p, "old_string": "", "new_string": "pwned"})
		if !r.isError || r.firstError()["kind"] != "outside-root" {
			t.Errorf("create %s: %+v", p, r)
		}
		r = s.call("read", map[string]any{"path": p})
		if !r.isError || r.firstError()["kind"] != "outside-root" {
			t.Errorf("read %s: %+v", p, r)
		}
		// fsrb read refuses it in the same words.
		cli := exec.Command(fsrbBin, "read", "--hashlines", p)
		cli.Dir = s.dir
		var stderr strings.Builder
		cli.Stderr = &stderr
		if out, err := cli.Output(); err == nil || len(out) > 0 || stderr.String() != r.text+"\n" {
			t.Errorf("fsrb read %s: %v, stdout %q\nstderr %q\nthe MCP read: %q", p, err, out, stderr.String(), r.text)
		}
		r = s.call("apply", map[string]any{"patch": p + "\n<<<<<<< SEARCH\nsecret\n=======\npwned\n>>>>>>> REPLACE\n"})
		if !r.isError || !strings.Contains(strings.Join(r.kinds(), ","), "outside-root") {
			t.Errorf("apply %s: %+v", p, r)
		}
	}
	// A batch that escapes once writes nothing at all.
	r := s.call("multi_edit", map[string]any{"edits": []any{
		map[string]any{"path": "ok.txt", "old_string": "fine", "new_string": "changed"},
		map[string]any{"path": "../x.txt", "old_string": "", "new_string": "x"},
	}})
	if !r.isError {
		t.Fatalf("multi_edit: %+v", r)
	}
	wantFile(t, s, "ok.txt", "fine\n")
	if data, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(data) != "secret\n" {
		t.Fatalf("outside file changed: %q", data)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(s.dir), "escape.txt")); err == nil {
		t.Fatal("escape.txt was written outside the root")
	}
}

// TestRoots: without --root the client's roots are the workspace; with
// --root they only narrow it.
// The roots come by a request of the server's on the protocol up to
// 2025-11-25, inside a tool call's answer from 2026-07-28 on.
func TestRoots(t *testing.T) {
	for _, proto := range []string{"2025-06-18", ""} {
		t.Run("protocol "+proto, func(t *testing.T) { testRoots(t, proto) })
	}
}

func testRoots(t *testing.T, proto string) {
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, "p.txt"), []byte("in project\n"), 0o644)
	cwd := t.TempDir()
	s := start(t, startOpt{proto: proto, dir: cwd, roots: []string{project}})
	r := s.call("edit", map[string]any{"path": "p.txt", "old_string": "in", "new_string": "IN"})
	if r.isError {
		t.Fatalf("edit in the client's root: %+v", r)
	}
	r = s.call("edit", map[string]any{"path": filepath.Join(project, "p.txt"), "old_string": "IN", "new_string": "in"})
	if r.isError {
		t.Fatalf("edit by absolute path in the client's root: %+v", r)
	}
	// --root narrows: a client root outside it is ignored.
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "r.txt"), []byte("root\n"), 0o644)
	s = start(t, startOpt{proto: proto, dir: cwd, args: []string{"--root", root}, roots: []string{project}})
	r = s.call("edit", map[string]any{"path": filepath.Join(project, "p.txt"), "old_string": "in", "new_string": "IN"})
	if !r.isError || r.firstError()["kind"] != "outside-root" {
		t.Fatalf("edit outside --root: %+v", r)
	}
	if r = s.call("edit", map[string]any{"path": "r.txt", "old_string": "root", "new_string": "ROOT"}); r.isError {
		t.Fatalf("edit in --root: %+v", r)
	}
	// A client root inside --root narrows to it.
	sub := filepath.Join(root, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "s.txt"), []byte("sub\n"), 0o644)
	s = start(t, startOpt{proto: proto, dir: cwd, args: []string{"--root", root}, roots: []string{sub}})
	if r = s.call("read", map[string]any{"path": "s.txt"}); r.isError {
		t.Fatalf("read in the narrowed root: %+v", r)
	}
	if r = s.call("read", map[string]any{"path": "../r.txt"}); !r.isError {
		t.Fatalf("read outside the narrowed root: %+v", r)
	}
}

// TestBigPatch: a 2 MB patch (11,000 blocks over 20 files) validates and
// applies over the pipe, schema checks and all. How long it takes is
// logged here and measured by BenchmarkBigPatch, never asserted in a
// test (the race detector and a loaded machine make wall time meaningless).
// bigPatch writes 20 files and returns a 2 MB patch of one block per line
// of them.
func bigPatch(s *server) string {
	var patch strings.Builder
	for i := 0; patch.Len() < 2<<20; i++ {
		name := fmt.Sprintf("src/f%03d.txt", i%20)
		line := fmt.Sprintf("line %d of the big patch, with some text to make it long enough\n", i)
		fmt.Fprintf(&patch, "%s\n<<<<<<< SEARCH\n%s=======\n%s>>>>>>> REPLACE\n", name, line, strings.ToUpper(line))
	}
	// The files the patch edits.
	contents := map[string]*strings.Builder{}
	for i := 0; ; i++ {
		name := fmt.Sprintf("src/f%03d.txt", i%20)
		line := fmt.Sprintf("line %d of the big patch, with some text to make it long enough\n", i)
		if !strings.Contains(patch.String(), name+"\n<<<<<<< SEARCH\n"+line) {
			break
		}
		if contents[name] == nil {
			contents[name] = &strings.Builder{}
		}
		contents[name].WriteString(line)
	}
	for name, b := range contents {
		s.write(name, b.String())
	}
	return patch.String()
}

func TestBigPatch(t *testing.T) {
	s := start(t, startOpt{})
	patch := bigPatch(s)
	for _, tool := range []string{"validate", "apply"} {
		t0 := time.Now()
		r := s.call(tool, map[string]any{"patch": patch})
		took := time.Since(t0)
		if r.isError || r.data["ok"] != true {
			t.Fatalf("%s: %v %s", tool, r.kinds(), r.text[:min(len(r.text), 500)])
		}
		t.Logf("%s of a %.1f MB patch: %v", tool, float64(len(patch))/(1<<20), took)
	}
}

// BenchmarkBigPatch: fsrb mcp's validate of a 2 MB patch (11,000 blocks
// over 20 files), over the stdio pipe, as an agent waits for it.
func BenchmarkBigPatch(b *testing.B) {
	s := start(b, startOpt{})
	patch := bigPatch(s)
	b.SetBytes(int64(len(patch)))
	b.ResetTimer()
	for b.Loop() {
		if r := s.call("validate", map[string]any{"patch": patch}); r.isError || r.data["ok"] != true {
			b.Fatalf("validate: %v", r.kinds())
		}
	}
}

// TestApplyToolCalls: apply takes agents' own tool-call JSON as a patch.
func TestApplyToolCalls(t *testing.T) {
	s := start(t, startOpt{})
	s.write("a.txt", "alpha\n")
	calls := `[{"name": "Edit", "input": {"file_path": "a.txt", "old_string": "alp", "new_string": "ALP"}},` +
		`{"type": "apply_patch_call", "call_id": "c1", "operation": {"type": "create_file", "path": "b.txt", "diff": "+bee\n"}}]`
	r := s.call("apply", map[string]any{"patch": calls})
	if r.isError || r.data["format"].(map[string]any)["name"] != "tool-calls" {
		t.Fatalf("apply of tool calls: %+v", r)
	}
	wantFile(t, s, "a.txt", "ALPha\n")
	wantFile(t, s, "b.txt", "bee\n")
}

// "fsrb mcp" is the fsrb-mcp beside fsrb: its help, its usage errors and
// its exit codes come through the exec unchanged.
func TestFsrbMCPIsTheServerBinary(t *testing.T) {
	out, err := exec.Command(fsrbBin, "mcp", "--help").Output()
	if err != nil || !strings.HasPrefix(string(out), "usage: fsrb mcp [--root DIR]\n") {
		t.Errorf("fsrb mcp --help: %v\n%s", err, out)
	}
	out, err = exec.Command(fsrbBin, "mcp", "stray").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "takes no arguments") {
		t.Errorf("fsrb mcp stray: %v\n%s", err, out)
	}
	out, err = exec.Command(filepath.Join(filepath.Dir(fsrbBin), "fsrb-mcp"), "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "fsrb-mcp ") {
		t.Errorf("fsrb-mcp --version: %v\n%s", err, out)
	}
}

// wantApplied checks the answer to a call whose every change is already
// in: not a tool error, the CLI's "Nothing to do" line, ok but not
// written, every block in "applied", and an already-applied note for
// each.
func wantApplied(t *testing.T, r result) {
	t.Helper()
	if r.isError || !strings.Contains(r.text, "] Nothing to do: ") {
		t.Fatalf("want a successful already-applied answer, got isError=%v:\n%s", r.isError, r.text)
	}
	if r.data["ok"] != true || r.data["written"] != false || len(r.kinds()) != 0 {
		t.Fatalf("report: %v", r.data)
	}
	notes, _ := r.data["notes"].([]any)
	var noted []any
	for _, n := range notes {
		if n := n.(map[string]any); n["kind"] == "already-applied" {
			noted = append(noted, n["block"])
		}
	}
	applied, _ := r.data["applied"].([]any)
	if len(applied) == 0 || !slices.Equal(applied, noted) {
		t.Fatalf("applied %v, already-applied notes on blocks %v: %v", applied, noted, r.data)
	}
}

// TestEditTwice calls each write tool twice with the same arguments, as
// an agent that retries after a timeout does: the second call writes
// nothing and says the change is already applied. Before, an edit whose
// new text keeps its old text matched again (b = 2 -> b = 20 -> b = 200).
func TestEditTwice(t *testing.T) {
	s := start(t, startOpt{})
	s.write("src/utils.py", "a = 1\nb = 2\n")
	s.write("src/app.py", "import os\n\nrun()\n")
	edit := map[string]any{"path": "src/utils.py", "old_string": "b = 2", "new_string": "b = 20"}
	if r := s.call("edit", edit); r.isError {
		t.Fatalf("edit: %s", r.text)
	}
	r := s.call("edit", edit)
	wantApplied(t, r)
	if !strings.Contains(r.text, "Note: block #1 is applied: its new text stands at src/utils.py:2") {
		t.Fatalf("text: %s", r.text)
	}
	wantFile(t, s, "src/utils.py", "a = 1\nb = 20\n")

	multi := map[string]any{"edits": []any{
		map[string]any{"path": "src/app.py", "old_string": "import os\n", "new_string": "import os\nimport re\n"},
		map[string]any{"path": "src/utils.py", "old_string": "a = 1", "new_string": "a = 1  # one"},
	}}
	if r := s.call("multi_edit", multi); r.isError {
		t.Fatalf("multi_edit: %s", r.text)
	}
	wantApplied(t, s.call("multi_edit", multi))
	wantFile(t, s, "src/app.py", "import os\nimport re\n\nrun()\n")
	wantFile(t, s, "src/utils.py", "a = 1  # one\nb = 20\n")

	// replace_all: every place reads as applied.
	s.write("a.txt", "hello old world old\n")
	all := map[string]any{"path": "a.txt", "old_string": "old", "new_string": "old-new", "replace_all": true}
	if r := s.call("edit", all); r.isError {
		t.Fatalf("replace_all: %s", r.text)
	}
	wantApplied(t, s.call("edit", all))
	wantFile(t, s, "a.txt", "hello old-new world old-new\n")

	// apply, a SEARCH/REPLACE block that appends after its SEARCH text.
	patch := map[string]any{"patch": "src/app.py\n<<<<<<< SEARCH\nrun()\n=======\nrun()\nstop()\n>>>>>>> REPLACE\n"}
	if r := s.call("apply", patch); r.isError {
		t.Fatalf("apply: %s", r.text)
	}
	wantApplied(t, s.call("apply", patch))
	wantFile(t, s, "src/app.py", "import os\nimport re\n\nrun()\nstop()\n")
	// validate gives the same answer, as a dry run.
	if r := s.call("validate", patch); r.data["dry_run"] != true {
		t.Fatalf("validate: %v", r.data)
	} else {
		wantApplied(t, r)
	}

	// An edit already in beside one that is not: the applied one is
	// skipped with a note, the other is written.
	mixed := map[string]any{"edits": []any{
		map[string]any{"path": "src/utils.py", "old_string": "b = 2", "new_string": "b = 20"},
		map[string]any{"path": "src/utils.py", "old_string": "a = 1  # one", "new_string": "a = 100"},
	}}
	r = s.call("multi_edit", mixed)
	if r.isError || r.data["ok"] != true || r.data["written"] != true || len(r.kinds()) != 0 {
		t.Fatalf("mixed multi_edit: isError=%v %v\n%s", r.isError, r.data, r.text)
	}
	if applied, _ := r.data["applied"].([]any); !slices.Equal(applied, []any{1.0}) {
		t.Fatalf("applied: %v", r.data["applied"])
	}
	if !strings.Contains(r.text, "(block #1 was already applied)") {
		t.Fatalf("text: %s", r.text)
	}
	wantFile(t, s, "src/utils.py", "a = 100\nb = 20\n")

	// An edit already in beside one that fails: nothing written, an
	// error that names the failing edit, the applied one a note.
	failing := map[string]any{"edits": []any{
		map[string]any{"path": "src/utils.py", "old_string": "b = 2", "new_string": "b = 20"},
		map[string]any{"path": "src/utils.py", "old_string": "c = 3", "new_string": "c = 30"},
	}}
	r = s.call("multi_edit", failing)
	if !r.isError || r.data["ok"] != false || r.data["written"] != false {
		t.Fatalf("applied and failing multi_edit: isError=%v %v\n%s", r.isError, r.data, r.text)
	}
	wantKinds(t, r, "not-found")
	if applied, _ := r.data["applied"].([]any); !slices.Equal(applied, []any{1.0}) {
		t.Fatalf("applied: %v", r.data["applied"])
	}
	wantFile(t, s, "src/utils.py", "a = 100\nb = 20\n")
}

// What the server writes is read by people too (logs, inspectors): the
// reports in it print "<", ">" and "&" as they are, as the CLI's --json
// does, not as Go's HTML escapes.
func TestWireDoesNotEscapeHTML(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x && y\n"), 0o644)
	cmd := exec.Command(fsrbBin, "mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
	patch := "a.txt\n<<<<<<< SEARCH\nif a < b && c > d\n=======\nz\n>>>>>>> REPLACE\n"
	call, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
		"params": map[string]any{"name": "validate", "arguments": map[string]any{"patch": patch}}})
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n"+
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"+string(call)+"\n")
	var out, answer string
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	for answer == "" && lines.Scan() {
		out += lines.Text() + "\n"
		if strings.Contains(lines.Text(), `"id":2`) {
			answer = lines.Text()
		}
	}
	if answer == "" || strings.Contains(answer, `\u00`) || !strings.Contains(answer, "<<<<<<< SEARCH") || !strings.Contains(answer, `"snippet":"if a < b && c > d"`) {
		t.Fatalf("the answer escapes HTML characters, or is missing:\n%s", out)
	}
	var msg struct {
		Result struct {
			StructuredContent struct {
				Errors []struct{ Snippet string }
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(answer), &msg); err != nil || len(msg.Result.StructuredContent.Errors) != 1 || msg.Result.StructuredContent.Errors[0].Snippet != "if a < b && c > d" {
		t.Errorf("answer %s: %v", answer, err)
	}
}
