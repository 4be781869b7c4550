package core

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An insert beside a block that stands applied: with Options.Applied it
// is refused as probably applied, and the plan holds the other blocks'
// changes only, so a partial commit cannot write the insert a second
// time. Alone, or without the applied block, the insert applies.
func TestBlindInsert(t *testing.T) {
	const (
		applied = `{"command": "str_replace", "path": "n.txt", "old_str": "first", "new_str": "one"}` + "\n"
		insert  = `{"command": "insert", "path": "n.txt", "insert_line": 1, "insert_text": "added"}` + "\n"
		applies = `{"command": "str_replace", "path": "n.txt", "old_str": "second", "new_str": "two"}` + "\n"
	)
	run := func(patch string, files MapFS) *Plan {
		return Validate(Parse(patch, ParseOptions{}), files, Options{Root: "/root", Applied: true})
	}
	files := MapFS{"n.txt": "one\nadded\nsecond\n"}

	plan := run(applied+insert+applies, files)
	got := []Status{plan.Blocks[0].Status, plan.Blocks[1].Status, plan.Blocks[2].Status}
	if diff := cmp.Diff([]Status{StatusApplied, StatusFailed, StatusApplies}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	errs := plan.Problems.Errors()
	if plan.OK() || len(errs) != 1 || errs[0].Kind != KindAlreadyApplied || errs[0].Block != 2 ||
		!strings.Contains(errs[0].Message, "call 2 (text editor insert) inserts after line 1") || !strings.Contains(errs[0].Message, "block #1 already applied") {
		t.Errorf("problems: %v", plan.Problems)
	}
	if len(plan.Files) != 1 || string(plan.Files[0].Bytes()) != "one\nadded\ntwo\n" || !cmp.Equal(plan.Files[0].Blocks, []int{3}) {
		t.Errorf("files = %+v, want n.txt with block 3's change only", plan.Files)
	}

	// Nothing stands applied: the insert applies.
	if plan := run(insert+applies, files); !plan.OK() || string(plan.Files[0].Bytes()) != "one\nadded\nadded\ntwo\n" {
		t.Errorf("insert without applied blocks: %v %+v", plan.Problems, plan.Files)
	}
	// Revalidate gives Validate's answer.
	prev := Revalidate(nil, Parse(applied+insert, ParseOptions{}), files, Options{Root: "/root", Applied: true})
	again := Revalidate(prev, Parse(applied+insert, ParseOptions{}), files, Options{Root: "/root", Applied: true})
	for _, p := range []*Plan{prev, again} {
		if p.OK() || p.Blocks[1].Status != StatusFailed || len(p.Files) != 0 {
			t.Errorf("Revalidate: OK %v, block 2 %s, files %d; want refused, nothing written", p.OK(), p.Blocks[1].Status, len(p.Files))
		}
	}
}
