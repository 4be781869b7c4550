package core

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBlockLines(t *testing.T) {
	fsys := MapFS{"f.txt": "a\nb\nc\nd\ne\n"}
	patch := Parse(`f.txt
<<<<<<< SEARCH
b
=======
B1
B2
>>>>>>> REPLACE
f.txt
<<<<<<< SEARCH
a
=======
>>>>>>> REPLACE
f.txt
<<<<<<< SEARCH
e
=======
E
>>>>>>> REPLACE
f.txt
<<<<<<< SEARCH
B2
c
=======
X
>>>>>>> REPLACE
`, ParseOptions{})
	plan := Validate(patch, fsys, Options{Root: "/w"})
	if !plan.OK() {
		t.Fatal(plan.Problems)
	}
	// Final text: B1 X d E. Block 2 only removed "a" (before B1); block 4
	// clipped block 1's tail and wrote X at line 2.
	if got := string(plan.Files[0].Bytes()); got != "B1\nX\nd\nE\n" {
		t.Fatalf("new text %q", got)
	}
	want := []BlockLines{{Block: 1, Line: 1, EndLine: 1}, {Block: 2, Line: 1, EndLine: 0}, {Block: 3, Line: 4, EndLine: 4}, {Block: 4, Line: 2, EndLine: 2}}
	if diff := cmp.Diff(want, plan.Files[0].Lines); diff != "" {
		t.Error(diff)
	}
}
