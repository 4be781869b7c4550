package treesitter

import (
	"strings"
	"testing"
)

// TestYAMLScannerDeepNesting runs YAML's C++ scanner, whose indentation
// stack grows through the operator new and delete of cxxabi_linux.go,
// over a mapping nested sixty deep, parsed whole and then again
// incrementally (the scanner's state serialized and restored), with and
// without an error.
func TestYAMLScannerDeepNesting(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		b.WriteString(strings.Repeat("  ", i) + "k:\n")
	}
	b.WriteString(strings.Repeat("  ", 60) + "leaf: 1\n")
	good := b.String()
	bad := good + strings.Repeat("  ", 60) + "other: \"unterminated\n"
	c := NewCache(4)
	for i, text := range []string{good, bad, good} {
		tree, err := c.Parse("deep.yaml", i, []byte(text), nil)
		if err != nil {
			t.Fatalf("parse %d: %v", i, err)
		}
		if want := text == bad; tree.HasError() != want {
			t.Errorf("parse %d: HasError() = %v, want %v", i, tree.HasError(), want)
		}
	}
}
