package core

import "testing"

// A problem's text names its block once, whether or not the message
// opens with it.
func TestProblemNamesBlockOnce(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want string
	}{
		{Problem{Block: 4, Message: "block #4 has no file path; using a.go like block #3"}, "block #4 has no file path; using a.go like block #3"},
		{Problem{Block: 4, Path: "a.go", Message: "block #4: the line numbers say line 2"}, "a.go: block #4: the line numbers say line 2"},
		{Problem{Block: 1, Message: "block #12 is applied"}, "block #1: block #12 is applied"},
		{Problem{Block: 2, Path: "a.go", Message: "SEARCH block not found in file content."}, "a.go: block #2: SEARCH block not found in file content."},
		{Problem{Message: "block #0 is not a block"}, "block #0 is not a block"},
	} {
		if got := tc.p.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

// MentionsBlock finds the block's own number anywhere in the message, a
// longer number aside.
func TestProblemMentionsBlock(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want bool
	}{
		{Problem{Block: 4, Message: "applying block #4 leaves a syntax error in a.go:3"}, true},
		{Problem{Block: 4, Message: "block #4 matched only after ignoring trailing whitespace"}, true},
		{Problem{Block: 1, Message: "SEARCH block not found: block #12 already changed line 4"}, false},
		{Problem{Block: 1, Message: "block #12 changed it, and then block #1 did"}, true},
		{Problem{Block: 2, Message: "it matches line 4, but block #1 already changed it"}, false},
		{Problem{Message: "block #0 is not a block"}, false},
	} {
		if got := tc.p.MentionsBlock(); got != tc.want {
			t.Errorf("MentionsBlock(%q, block %d) = %v, want %v", tc.p.Message, tc.p.Block, got, tc.want)
		}
	}
}
