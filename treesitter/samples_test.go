package treesitter

import (
	"path/filepath"
	"testing"
)

// samplePaths are the sample files of every language, annotated with the
// definitions each position is in (testdata/treesitter/defs).
func samplePaths(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "testdata", "treesitter", "defs", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples in testdata/treesitter/defs: %v", err)
	}
	return files
}
