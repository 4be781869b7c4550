package core

import (
	"fmt"
	"strings"

	udiff "github.com/aymanbagabas/go-udiff"
)

// words is how messages name a block and its texts in its own format: a
// SEARCH/REPLACE block has SEARCH and REPLACE, a hunk has lines, an
// agent's call has old_string and new_string. The engine writes its
// messages in SEARCH/REPLACE terms; speak turns them into the block's.
type words struct {
	name string // "block #2", "hunk 1 of *** Update File: a.py (patch line 3)", "call 2 (Edit)"
	old  string // the text the block looks for, as a diff header names it
	// says rewrites a message written in SEARCH/REPLACE terms; nil for a
	// SEARCH/REPLACE block.
	says *strings.Replacer
}

// hunkWords: a hunk's SEARCH is its context and "-" lines, its REPLACE its
// context and "+" lines. Longer phrases come first: a Replacer tries its
// pairs in order at each place.
var hunkWords = strings.NewReplacer(
	"SEARCH block not found in file content.", "the hunk's context and - lines are not in the file.",
	"SEARCH block not found in file content", "the hunk's context and - lines are not in the file",
	"SEARCH block occurs only inside its REPLACE text, which is", "the hunk's - lines occur only inside its + lines, which are",
	"its REPLACE text is already there", "its + lines are already there",
	"its REPLACE text stands", "its + lines stand",
	"(and the same to REPLACE)", "as context lines",
	" (and REPLACE)", "",
	"(and as many from REPLACE)", "",
	"into SEARCH", "into the hunk's context and - lines",
	"to SEARCH", "to the hunk",
	"its SEARCH text still stands", "its context and - lines still stand",
	"SEARCH matches", "the hunk's context and - lines match",
	"SEARCH has", "the hunk's context and - lines have",
	"SEARCH block", "the hunk",
	"SEARCH and REPLACE", "the hunk's lines",
	"SEARCH's", "the hunk's",
	"SEARCH", "the hunk's context and - lines",
	"REPLACE", "the + lines",
	"this block", "this hunk",
)

// callWords: an agent's call names its texts old_string and new_string.
var callWords = strings.NewReplacer(
	"SEARCH block", "old_string",
	"SEARCH", "old_string",
	"REPLACE", "new_string",
	"this block", "this edit",
)

func wordsOf(b *Block) words {
	w := words{name: fmt.Sprintf("block #%d", b.Number), old: "SEARCH"}
	if b.Label != "" {
		w.name = b.Label
	}
	switch {
	case b.Dialect == DialectApplyPatch || b.Dialect == DialectUdiff:
		w.old, w.says = "hunk", hunkWords
	case b.Dialect == DialectToolCall:
		w.old, w.says = "old_string", callWords
	}
	return w
}

// say puts a message written in SEARCH/REPLACE terms into the block's.
func (w words) say(s string) string {
	if w.says == nil {
		return s
	}
	return w.says.Replace(s)
}

// nearMiss is the diff from a block's text to the place c of its file
// that resembles it: headed with the block's name for its text and the
// file's lines, and numbered on the file's side by the file's lines, so
// that the diff, the message and the JSON give the same line.
func nearMiss(w words, path, search string, c Candidate) string {
	from := withEOL(search)
	d, err := udiff.ToUnifiedDiff(w.old, fmt.Sprintf("%s lines %d-%d", path, c.Line, c.EndLine), from, udiff.Lines(from, c.Text), udiff.DefaultContextLines)
	if err != nil {
		return ""
	}
	for _, h := range d.Hunks {
		h.ToLine += c.Line - 1
	}
	return d.String()
}

// speak puts the validation problems of the blocks that are not
// SEARCH/REPLACE blocks into their own words, and names the block the way
// its format does: "hunk 2 of *** Update File: a.py (patch line 14): the
// hunk's lines are not in the file.", "call 2 (Edit) matched only after …".
func speak(patch *Patch, ps Problems) {
	for i := range ps {
		p := &ps[i]
		b := patch.Block(p.Block)
		if b == nil || p.Kind == KindSyntax {
			continue
		}
		w := wordsOf(b)
		if b.Label == "" && w.says == nil {
			continue
		}
		own := fmt.Sprintf("block #%d", b.Number)
		msg, hint := p.Message, p.Hint
		switch {
		case p.NamesBlock() && (p.Kind == KindIrreversible || p.Kind == KindNotApplied):
			// A revert numbers the blocks of the patch it undoes and
			// says what each one is.
			continue
		case p.NamesBlock():
			p.Message, p.Hint = w.name+w.say(strings.TrimPrefix(msg, own)), w.say(hint)
			continue
		}
		if b.Label != "" && strings.HasPrefix(msg, b.Label) {
			continue
		}
		if p.Kind == KindFileExists && b.Dialect == DialectUdiff {
			// The message of a SEARCH/REPLACE create reads wrong for a
			// diff from /dev/null.
			msg = fmt.Sprintf("%s already exists and is not empty, but the diff creates it (its --- line is /dev/null)", b.Path)
			hint = fmt.Sprintf("to change the file, diff it from --- a/%s with context lines; to replace it whole, delete it first", b.Path)
		}
		msg = w.say(msg)
		switch {
		case p.Kind == KindAmbiguous && b.Dialect == DialectApplyPatch && !strings.HasPrefix(msg, "the anchor"):
			hint = "add an @@ line naming the enclosing function or class above the hunk, or more context lines, so that it matches only the place you mean"
		case p.Kind == KindMissingFile && b.Dialect == DialectApplyPatch && b.Op == OpModify:
			hint = "check the path; to create the file, use *** Add File: " + b.Path + " with its lines prefixed +"
		case p.Kind == KindMissingFile && b.Dialect == DialectUdiff && b.Op == OpModify:
			hint = "check the path; to create the file, diff it from --- /dev/null to +++ b/" + b.Path
		default:
			hint = w.say(hint)
		}
		p.Hint = hint
		if b.Label != "" {
			msg = b.Label + ": " + msg
		}
		p.Message = msg
	}
}
