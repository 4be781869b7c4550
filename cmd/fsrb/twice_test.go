package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCasesTwice runs every case that applies through the built fsrb a
// second time, on the tree the first run left: a patch run twice is
// refused (exit 1), never written twice, whatever its format
// (docs/formats.md "Applied patches"). The exceptions are the ones it
// names: a block placed by a --fuzzy rung (only exact text counts as
// applied) and a patch that changes nothing.
func TestCasesTwice(t *testing.T) {
	changesNothing := map[string]bool{"hashline_cline_markers": true}
	ran := 0
	for _, tc := range loadCases(t) {
		if tc.Exit != 0 || tc.Has("--dry-run") || tc.Has("--blocks") || tc.Has("--revert") || tc.Has("--partial") {
			continue
		}
		t.Run(tc.Name, func(t *testing.T) {
			if tc.Has("--fuzzy") {
				t.Skip("placed by a --fuzzy rung: only exact text counts as applied")
			}
			if changesNothing[tc.Name] {
				t.Skip("the patch changes nothing")
			}
			root, patchFile := tc.setup(t)
			args := append(append([]string{}, tc.Args...), patchFile)
			if code, stdout, stderr := runCLI(t, root, args...); code != 0 {
				t.Fatalf("first run: exit %d\n%s%s", code, stdout, stderr)
			}
			once := tree(t, root)
			code, stdout, stderr := runCLI(t, root, args...)
			if code != 1 {
				t.Errorf("second run: exit %d, want 1 (refused)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "Nothing was written.") {
				t.Errorf("second run: stderr does not say nothing was written:\n%s", stderr)
			}
			if diff := cmp.Diff(once, tree(t, root)); diff != "" {
				t.Errorf("the second run wrote (-after first +after second):\n%s", diff)
			}
			ran++
		})
	}
	if ran < 60 {
		t.Errorf("only %d cases ran twice", ran)
	}
}
