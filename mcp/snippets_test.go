package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fsrb/fsrb/internal/testenv"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestClientSnippets checks the client set-up snippets of docs/agents.md
// ("Registering fsrb mcp with your client"): each parses in its client's
// format with the keys that client reads, and the command it gives starts a
// server that lists fsrb's tools. A snippet the README repeats must be the
// same text.
func TestClientSnippets(t *testing.T) {
	re := regexp.MustCompile("(?s)<!-- snippet: ([a-z-]+) -->\n```[a-z]*\n(.*?)```")
	snippets := func(path string) map[string]string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]string{}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			found[m[1]] = m[2]
		}
		return found
	}
	found := snippets("../docs/agents.md")
	for name, body := range snippets("../README.md") {
		if found[name] != body {
			t.Errorf("README.md's snippet %q is not the one in docs/agents.md", name)
		}
	}
	want := []string{"claude-code-cli", "claude-code-json", "codex-toml", "gemini-json", "vscode-json", "cursor-json", "zed-json"}
	for _, name := range want {
		body, ok := found[name]
		if !ok {
			t.Errorf("docs/agents.md has no snippet %q", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			command, args := snippetCommand(t, name, body)
			if command != "fsrb" || len(args) == 0 || args[0] != "mcp" {
				t.Fatalf("the snippet runs %q %q, want fsrb mcp", command, args)
			}
			dir := t.TempDir()
			for i, a := range args {
				args[i] = strings.ReplaceAll(a, "${workspaceFolder}", dir)
			}
			cmd := exec.Command(fsrbBin, args...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir())
			ctx, cancel := context.WithTimeout(context.Background(), testenv.Timeout(t, 30*time.Second))
			defer cancel()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil || len(tools.Tools) != 6 {
				t.Fatalf("tools: %v %v", tools, err)
			}
		})
	}
}

// snippetCommand reads the command and arguments of a snippet the way its
// client does.
func snippetCommand(t *testing.T, name, body string) (string, []string) {
	t.Helper()
	switch {
	case strings.HasSuffix(name, "-cli"):
		_, cmd, ok := strings.Cut(strings.TrimSpace(body), " -- ")
		if !ok || !strings.HasPrefix(body, "claude mcp add fsrb ") {
			t.Fatalf("not a claude mcp add command: %q", body)
		}
		f := strings.Fields(cmd)
		return f[0], f[1:]
	case strings.HasSuffix(name, "-toml"):
		return tomlServer(t, body, "mcp_servers.fsrb")
	}
	var doc map[string]map[string]struct {
		Type    string            `json:"type"`
		Source  string            `json:"source"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not JSON of the expected shape: %v", err)
	}
	key := map[string]string{"vscode-json": "servers", "zed-json": "context_servers"}[name]
	if key == "" {
		key = "mcpServers"
	}
	if len(doc) != 1 || doc[key] == nil {
		t.Fatalf("want one top-level key %q, got %v", key, doc)
	}
	s, ok := doc[key]["fsrb"]
	if !ok {
		t.Fatalf("no server named fsrb under %q", key)
	}
	switch name {
	case "vscode-json":
		if s.Type != "stdio" {
			t.Fatalf("VS Code needs type stdio, got %q", s.Type)
		}
	case "zed-json":
		if s.Source != "custom" {
			t.Fatalf("Zed needs source custom, got %q", s.Source)
		}
	}
	return s.Command, s.Args
}

// tomlServer reads a table's command and args from the TOML subset the
// snippet uses: one [table] header and key = value lines, whose basic
// strings and string arrays are also JSON.
func tomlServer(t *testing.T, body, table string) (string, []string) {
	t.Helper()
	var command string
	var args []string
	in := false
	for _, line := range strings.Split(body, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			in = line == "["+table+"]"
		case in:
			k, v, ok := strings.Cut(line, "=")
			if !ok {
				t.Fatalf("bad TOML line %q", line)
			}
			var err error
			switch strings.TrimSpace(k) {
			case "command":
				err = json.Unmarshal([]byte(strings.TrimSpace(v)), &command)
			case "args":
				err = json.Unmarshal([]byte(strings.TrimSpace(v)), &args)
			default:
				t.Fatalf("unexpected key %q", k)
			}
			if err != nil {
				t.Fatalf("bad TOML value in %q: %v", line, err)
			}
		}
	}
	return command, args
}
