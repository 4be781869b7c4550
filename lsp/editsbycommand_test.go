package lsp_test

import (
	"encoding/json"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// A client that declares experimental.fsrb.editsByCommand gets the Apply
// and Revert code actions as their commands, without an edit: running one
// sends workspace/applyEdit, which the Neovim plugin handles for its own
// client. Quick fixes keep their edit.
func TestEditsByCommand(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
	c := startClient(t, root)
	c.initialize(`{"workspace": {"applyEdit": true, "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]}},
  "experimental": {"fsrb": {"editsByCommand": true}}}`, nil)
	text := "a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n\nb.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n"
	u := c.open("p.fsrb", &text)
	c.waitDiagnostics(u, 1)
	at := positionOf(text, strings.Index(text, "two"))
	var got []string
	for _, a := range c.codeActions(u, protocol.Range{Start: at, End: at}, protocol.CodeActionKindRefactorRewrite) {
		if a.Edit != nil {
			t.Errorf("%q carries an edit", a.Title)
		}
		args, _ := json.Marshal(a.Command.Arguments)
		got = append(got, a.Title+" -> "+a.Command.Command+" "+string(args))
	}
	want := `Apply all blocks (2 blocks to 2 files) -> fsrb.applyAll ["` + string(u) + `"]|` +
		`Apply block #2 (b.txt) -> fsrb.applyBlock ["` + string(u) + `",2]|` +
		`Skip block #2 (b.txt) -> fsrb.skipBlock ["` + string(u) + `",2]`
	if strings.Join(got, "|") != want {
		t.Errorf("actions\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
}
