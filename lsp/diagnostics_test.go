package lsp_test

import (
	"strings"
	"testing"
)

// A hint that suggests the fuzzy ladder names the editor's setting, not
// the CLI's flag.
func TestFuzzyHintNamesTheSetting(t *testing.T) {
	root := writeFiles(t, map[string]string{"a.txt": "hello\nworld\n"})
	c := newClient(t, root)
	text := "a.txt\n<<<<<<< SEARCH\nhelo\n=======\nhi\n>>>>>>> REPLACE\n"
	u := c.open("p.fsrb", &text)
	diags := c.waitDiagnostics(u, 1)
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", errorsOf(diags))
	}
	msg := messageOf(diags[0])
	if !strings.HasSuffix(msg, "or turn on the fuzzy setting") || strings.Contains(msg, "--fuzzy") {
		t.Errorf("message %q", msg)
	}
}
