package lsp

import (
	"encoding/json"
	"testing"

	"go.lsp.dev/uri"
)

// TestArgs holds args' reflection-free strings and ints to what
// json.Marshal writes, read back: the same values, in valid JSON.
func TestArgs(t *testing.T) {
	in := []any{
		"file:///tmp/a%20b/answer.md", `quote " backslash \ tab 	 nl
`, "<script>&</script>", "line\u2028sep", "é \x01 \x7f", "bad \xff utf8", "",
		0, -7, 1234567, uri.URI("file:///x.md"),
	}
	got := args(in...)
	if len(got) != len(in) {
		t.Fatalf("args gave %d values for %d", len(got), len(in))
	}
	for i, v := range in {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if err := json.Unmarshal(got[i], &a); err != nil {
			t.Fatalf("args(%q) = %s, not JSON: %v", v, got[i], err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		if a != b {
			t.Errorf("args(%q) = %s, reads back as %q; json.Marshal: %s, %q", v, got[i], a, want, b)
		}
	}
}
