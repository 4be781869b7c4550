package lsp

import (
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
)

// A message that names another block (#12, or the earlier #1 that changed
// a block's text) is still put under its own block's number; one that
// names its own block is not named twice.
func TestMessageNamesItsBlock(t *testing.T) {
	for _, tc := range []struct {
		p    core.Problem
		want string
	}{
		{core.Problem{Block: 1, Message: "SEARCH block not found in file content: block #12 of this patch already changed line 4"},
			"block #1: SEARCH block not found in file content: block #12"},
		{core.Problem{Block: 2, Message: "SEARCH block not found in file content: it matches line 4 of a.py as it was read, but block #1 of this patch already changed line 4"},
			"block #2: SEARCH block not found"},
		{core.Problem{Block: 3, Message: "block #3 matched only after ignoring trailing whitespace"},
			"block #3 matched only"},
		{core.Problem{Block: 4, Message: "applying block #4 leaves a syntax error in open.py:3"},
			"applying block #4 leaves"},
	} {
		for name, got := range map[string]string{"message": message(tc.p), "firstError": firstError(&core.Plan{Problems: core.Problems{tc.p}})} {
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("%s = %q, want it to start with %q", name, got, tc.want)
			}
		}
	}
}
