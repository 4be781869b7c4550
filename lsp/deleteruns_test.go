package lsp_test

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The folders an Apply empties are deleted after their files. A client
// that declares experimental.fsrb.checksDeleteRuns (the VS Code extension)
// gets a no-op CreateFile of the workspace folder before each; any other
// gets the deletes alone.
func TestDeleteRuns(t *testing.T) {
	for _, tc := range []struct{ name, caps, want string }{
		{"vscode", `{"workspace": {"applyEdit": true, "workspaceEdit": {"documentChanges": true, "resourceOperations": ["create", "rename", "delete"]}},
  "experimental": {"fsrb": {"checksDeleteRuns": true}}}`, "delete docs/guide/a.txt|create .|delete docs/guide|create .|delete docs"},
		{"other", `{"workspace": {"applyEdit": true, "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]}}}`,
			"delete docs/guide/a.txt|delete docs/guide|delete docs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeFiles(t, map[string]string{"docs/guide/a.txt": "gone\n"})
			c := startClient(t, root)
			c.initialize(tc.caps, nil)
			text := "docs/guide/a.txt\n<<<<<<< SEARCH\ngone\n=======\n>>>>>>> REPLACE\n"
			u := c.open("p.fsrb", &text)
			c.waitDiagnostics(u, 1)
			var edit *protocol.WorkspaceEdit
			for _, a := range c.codeActions(u, protocol.Range{}, protocol.CodeActionKindRefactorRewrite) {
				if strings.HasPrefix(a.Title, "Apply all blocks") {
					edit = a.Edit
				}
			}
			if edit == nil {
				t.Fatal("no Apply all edit")
			}
			rel := func(u uri.URI) string {
				r := strings.TrimPrefix(strings.TrimPrefix(string(u), string(c.uri(""))), "/")
				if r == "" {
					return "."
				}
				return r
			}
			var got []string
			for _, dc := range edit.DocumentChanges {
				switch dc := dc.(type) {
				case *protocol.CreateFile:
					got = append(got, "create "+rel(dc.URI))
				case *protocol.DeleteFile:
					got = append(got, "delete "+rel(dc.URI))
				default:
					got = append(got, "edit")
				}
			}
			if strings.Join(got, "|") != tc.want {
				t.Errorf("got  %s\nwant %s", strings.Join(got, "|"), tc.want)
			}
		})
	}
}
