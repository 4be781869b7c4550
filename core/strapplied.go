package core

import (
	"fmt"
	"strings"
)

// The applied state of a str_replace edit: the applied rule (stands,
// applied.go) on substrings instead of whole lines, over the whole file. An agent that retries a call
// whose new text keeps its old text ("b = 2" -> "b = 20", or an import
// appended after the one it names) would otherwise match again and write
// the change a second time. An edit that deletes its old text (an empty
// new_string) leaves nothing to recognise, and neither does an insert at
// a line number.

// strApplied reports whether a str_replace block stands applied in hay,
// given the occurrences of its old text that strReplace found (up to its
// limit), and records it as applied (an error, or with Options.Applied a
// note).
func (v *validator) strApplied(b *Block, res *BlockResult, hay string, occ []int) bool {
	if b.Replace == "" || b.Search == b.Replace || len(occ) > 0 && !strings.Contains(b.Replace, b.Search) {
		return false
	}
	repl := substrings(hay, b.Replace, -1)
	want := b.Expected
	switch {
	case b.ReplaceAll:
		want = 0
	case want == 0:
		want = 1
	}
	if len(occ) > 0 {
		occ = substrings(hay, b.Search, -1)
	}
	if !stands(b.Search, b.Replace, occ, repl, want) {
		return false
	}
	line := strings.Count(hay[:repl[0]], "\n") + 1
	end := line + strings.Count(b.Replace, "\n")
	where := fmt.Sprintf("line %d", line)
	if end > line {
		where = fmt.Sprintf("lines %d-%d", line, end)
	}
	if len(repl) > 1 {
		where += fmt.Sprintf(" and %s more", plural(len(repl)-1, "place"))
	}
	msg := fmt.Sprintf("already applied: new_string stands at %s of %s, and old_string is gone", where, b.Path)
	hint := "the change is in: go on without this edit; if it is not the change you meant, read the file again and fix old_string"
	if len(occ) > 0 {
		msg = fmt.Sprintf("already applied: new_string stands at %s of %s, and old_string occurs only inside it; applying the edit again would repeat the change", where, b.Path)
		hint = "the change is in: go on without this edit"
	}
	at := fileAt(b.Path, line, end)
	v.applied(b, res, line, end, "its new text stands at "+at, msg, hint)
	return true
}
