package core

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
)

// resolver places one chat snippet in its file (answer.go): it pairs the
// block's items with the file's and writes the file's new lines.
type resolver struct {
	v           *validator
	b           *Block
	path        string
	file, block []string     // lines, each with its "\n"
	marks       map[int]bool // block lines that are omission markers

	fileItems, blockItems []Item
	outlined              bool // the language has a grammar

	out    []string // the new lines, as emitted
	pooled bool     // out is lineBufs': dropLines may take it back
	kept   []Kept
	place  [2]int // the file lines of the items it pairs with, for messages
	sides  map[*Item]*blockSide
	delta  indentDelta // from the block's indentation to the file's
}

// resolver is a resolver of b on the file's lines (text joined), its
// block's and its file's items outlined.
func (v *validator) resolver(b *Block, file []string, text string) *resolver {
	r := &resolver{v: v, b: b, path: b.Path, file: file, block: splitKeep(b.Replace), marks: map[int]bool{}}
	for _, m := range b.Omissions {
		r.marks[m] = true
	}
	r.fileItems, r.outlined = r.outline(text)
	r.blockItems, _ = r.outlineBlock()
	return r
}

// blockIndent is the re-indentation from a block line to the file line
// it pairs with: the block may show a method without its class, less
// indented than the file has it. The fuzzy ladder's rule: a difference
// that mixes tabs and spaces is none.
func blockIndent(blockLine, fileLine string) indentDelta {
	dl, mixed := newIndentDelta(blockLine, fileLine)
	if mixed != "" {
		return indentDelta{}
	}
	return dl
}

// touch widens the place to the file lines [from, to).
func (r *resolver) touch(from, to int) {
	if r.place == [2]int{} {
		r.place = [2]int{from, to}
		return
	}
	r.place = [2]int{min(r.place[0], from), max(r.place[1], to)}
}

// outline reads the file's items through the Outliner, or as one item a
// non-blank line when its language has no grammar.
func (r *resolver) outline(text string) ([]Item, bool) { return r.outlineAs(r.path, text) }

// outlineBlock reads the block's items. It names the block apart from its
// file (the same extension, another path): an outliner that parses each
// path incrementally from its last tree would otherwise parse the file
// from the snippet's tree and the snippet from the file's, a whole parse
// each time.
func (r *resolver) outlineBlock() ([]Item, bool) {
	return r.outlineAs(path.Join("fsrb-snippet:", r.path), r.b.Replace)
}

func (r *resolver) outlineAs(name, text string) ([]Item, bool) {
	if r.v.opt.Outline != nil {
		if items, ok := r.v.opt.Outline(name, text); ok {
			return withoutLeads(items), true
		}
	}
	var items []Item
	for i, l := range splitKeep(text) {
		if strings.TrimSpace(l) != "" {
			items = append(items, Item{Lead: i, Start: i, End: i + 1, Head: i + 1, Tail: i + 1})
		}
	}
	return items, false
}

// withoutLeads drops the items that are a later item's doc comment or
// decorators (its Lead lines), which an outline may also list as items of
// their own: they go with their definition.
func withoutLeads(items []Item) []Item {
	if leadFree.has(items) {
		return items
	}
	if !overlapsLead(items) {
		leadFree.add(items)
		return items // tree-sitter's outline never lists them: no copy
	}
	keep := make([]bool, len(items))
	lead, start := -1, -1 // the lead lines of the nearest item kept after
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		if start >= 0 && it.Start >= lead && it.End <= start {
			continue
		}
		keep[i], lead, start = true, it.Lead, it.Start
	}
	out := make([]Item, 0, len(items))
	for i, it := range items {
		if keep[i] {
			it.Kids = withoutLeads(it.Kids)
			out = append(out, it)
		}
	}
	return out
}

// overlapsLead reports whether an item at any level lies in the lead
// lines of the item after it.
func overlapsLead(items []Item) bool {
	for i := range items {
		it := &items[i]
		if i+1 < len(items) && it.Start >= items[i+1].Lead && it.End <= items[i+1].Start || overlapsLead(it.Kids) {
			return true
		}
	}
	return false
}

// leadFree remembers the outlines that list no lead lines as items, by
// identity: an outliner shares an outline between the calls for the same
// text and never modifies it (Outliner), and every resolution of a block
// outlines its file, most often the same text as the last. It keeps the
// outlines it names alive, so it forgets them all when it holds
// leadFreeKept.
var leadFree outlineSet

const leadFreeKept = 64

type outlineSet struct {
	mu   sync.Mutex
	seen map[*Item]int // an outline's first item: its length
}

func (s *outlineSet) has(items []Item) bool {
	if len(items) == 0 {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n, ok := s.seen[&items[0]]
	return ok && n == len(items)
}

func (s *outlineSet) add(items []Item) {
	if len(items) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil || len(s.seen) >= leadFreeKept {
		s.seen = map[*Item]int{}
	}
	s.seen[&items[0]] = len(items)
}

// resolve chooses the shape and returns the file's new lines.
func (r *resolver) resolve() (Shape, []string, *snippetRefusal) {
	if len(r.marks) > 0 {
		err := r.lazy()
		return ShapeLazy, r.out, err
	}
	if !r.outlined {
		return ShapeDefinition, nil, &snippetRefusal{kind: KindNotFound,
			msg:  fmt.Sprintf("block #%d has no omission marker, and fsrb has no grammar for %s to find what it replaces: a code block without markers can only create a file there", r.b.Number, r.path),
			hint: "add a marker line (\"... existing code ...\" as a comment) where the file's text stays, with a line the file holds above and below the change; or use a SEARCH/REPLACE block"}
	}
	if r.wholeFile() {
		return ShapeWholeFile, r.block, nil
	}
	err := r.definitions()
	return ShapeDefinition, r.out, err
}

// isMarker reports whether an item is an omission marker line.
func (r *resolver) isMarker(it Item) bool {
	for l := it.Start; l < it.End; l++ {
		if !r.marks[l] {
			return false
		}
	}
	return it.End > it.Start
}

// hasMarker reports whether an item holds a marker inside it.
func (r *resolver) hasMarker(it Item) bool {
	for l := it.Lead; l < it.End; l++ {
		if r.marks[l] {
			return true
		}
	}
	return false
}

// kindFamily lets a function in the block pair with a method in the file:
// a method shown without its class reads as a function.
func kindFamily(k string) string {
	switch k {
	case "function", "method", "func", "fn", "arrow_function", "constructor":
		return "function"
	}
	return k
}

func (r *resolver) sameDefinition(a, b Item) bool {
	if !a.Definition() || !b.Definition() || a.Name != b.Name || kindFamily(a.Kind) != kindFamily(b.Kind) ||
		a.Scope != "" && b.Scope != "" && a.Scope != b.Scope {
		return false
	}
	// Go writes a method's receiver on its first line, wherever it
	// stands: a function there is never a method.
	return !strings.HasSuffix(r.path, ".go") || a.Kind == b.Kind
}

// textOf is an item's lines, each trimmed, for pairing by equal text.
func textOf(lines []string, it Item) string {
	var sb strings.Builder
	for _, l := range lines[it.Start:it.End] {
		sb.WriteString(strings.TrimSpace(l))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// isTextOf reports whether text is textOf the lines, without making it.
func isTextOf(text string, lines []string) bool {
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if len(text) <= len(t) || text[:len(t)] != t || text[len(t)] != '\n' {
			return false
		}
		text = text[len(t)+1:]
	}
	return text == ""
}

// sameTrimmed reports whether textOf a and textOf b are equal, without
// making them.
func sameTrimmed(a, b []string) bool {
	return slices.EqualFunc(a, b, func(x, y string) bool { return strings.TrimSpace(x) == strings.TrimSpace(y) })
}

// wholeFile reports whether a block without markers is the whole file: it
// holds every top-level definition of the file, and some top-level lines
// of other kinds when the file has them (imports, say): one definition
// alone is never taken for a file that holds it and its imports. A file
// with no definition is whole when the block holds each of its top-level
// statements, by structure or text.
func (r *resolver) wholeFile() bool {
	defs, others := 0, false
	for _, it := range r.fileItems {
		switch {
		case it.Definition():
			defs++
			if !slices.ContainsFunc(r.blockItems, func(b Item) bool { return r.sameDefinition(b, it) }) {
				return false
			}
		case it.Key != "" || !r.isComment(r.file, it):
			others = true
		}
	}
	if defs == 0 {
		// A file of statements alone (a script, a config): the block must
		// hold every one of them, by structure or text, rewritten or not.
		n := 0
		for _, it := range r.fileItems {
			if r.isComment(r.file, it) {
				continue
			}
			n++
			if !slices.ContainsFunc(r.blockItems, func(b Item) bool { ok, _ := r.pairs(b, it); return ok }) {
				return false
			}
		}
		return n > 0
	}
	if others {
		return slices.ContainsFunc(r.blockItems, func(b Item) bool { return !b.Definition() && !r.isComment(r.block, b) })
	}
	return true
}

// isComment reports whether an item's lines all read as comments.
func (r *resolver) isComment(lines []string, it Item) bool {
	if it.Definition() || it.Key != "" {
		return false
	}
	for _, l := range lines[it.Start:it.End] {
		// A whole-line comment of any form the parser knows (commentForms),
		// or the " * ..." lines inside a block comment.
		t := strings.TrimSpace(l)
		if _, ok := uncomment(t); !ok && !strings.HasPrefix(t, "*") {
			return false
		}
	}
	return true
}

// place is a definition of the file, with the definition around it.
type place struct {
	it     Item
	parent *Item
}

// namesakes lists the file's definitions that a block definition may
// replace, at any depth.
func (r *resolver) namesakes(items []Item, parent *Item, want Item, out []place) []place {
	for i := range items {
		it := items[i]
		if r.sameDefinition(want, it) {
			out = append(out, place{it, parent})
		}
		if len(it.Kids) > 0 {
			out = r.namesakes(it.Kids, &items[i], want, out)
		}
	}
	return out
}

// where names a place for messages: "lines 12-30 (method Start in class
// Server)".
func (r *resolver) where(p place) string {
	s := fmt.Sprintf("%s %s", p.it.Kind, p.it.Name)
	if p.parent != nil && p.parent.Definition() {
		s += fmt.Sprintf(" in %s %s", p.parent.Kind, p.parent.Name)
	}
	return fmt.Sprintf("%s (%s)", fileAt(r.path, p.it.Start+1, p.it.End), s)
}

func (r *resolver) candidates(ps []place) []Candidate {
	var cs []Candidate
	for _, p := range ps {
		c := Candidate{Line: p.it.Start + 1, EndLine: p.it.End, Context: strings.TrimSpace(r.file[p.it.Start]), Similarity: 1,
			Text: strings.Join(r.file[p.it.Start:p.it.End], "")}
		if p.parent != nil && p.parent.Definition() {
			c.Explanation = Explanation{Where: p.parent.Kind + " " + p.parent.Name, Name: p.parent.Name + "." + p.it.Name}
		}
		cs = append(cs, c)
	}
	return cs
}

// definitions replaces each definition of the block with its one
// namesake in the file.
func (r *resolver) definitions() *snippetRefusal {
	type splice struct {
		from, to int
		lines    []string
	}
	var sp []splice
	for _, it := range r.blockItems {
		if r.isComment(r.block, it) {
			continue
		}
		if !it.Definition() {
			return &snippetRefusal{kind: KindNotFound,
				msg:  fmt.Sprintf("block #%d is not the whole of %s and names nothing the file holds: line %d, %q, is no definition, and the block has no omission marker", r.b.Number, r.path, it.Start+1, strings.TrimSpace(r.block[it.Start])),
				hint: "add a marker line (\"... existing code ...\" as a comment) for the text that stays, and the enclosing definition's first line; or give the whole file"}
		}
		ps := r.namesakes(r.fileItems, nil, it, nil)
		switch len(ps) {
		case 0:
			return &snippetRefusal{kind: KindNotFound,
				msg:  fmt.Sprintf("block #%d defines %s %s, which %s does not hold, and a snippet is never appended", r.b.Number, it.Kind, it.Name, r.path),
				hint: "to add it, show where: put the definition before or after it in the block, with a marker line (\"... existing code ...\" as a comment) for the rest; or use a SEARCH/REPLACE block"}
		case 1:
		default:
			var ws []string
			for _, p := range ps {
				ws = append(ws, r.where(p))
			}
			return &snippetRefusal{kind: KindAmbiguous, line: ps[0].it.Start + 1, candidates: r.candidates(ps),
				msg:  fmt.Sprintf("block #%d defines %s %s, which %s holds %d times: %s", r.b.Number, it.Kind, it.Name, r.path, len(ps), strings.Join(ws, "; ")),
				hint: "show the enclosing class or receiver in the block, or use a SEARCH/REPLACE block"}
		}
		f := ps[0].it
		from, bs := f.Start, it.Start
		if it.Lead < it.Start {
			from, bs = f.Lead, it.Lead
		}
		lines := blockIndent(r.block[it.Start], r.file[f.Start]).apply(r.block[bs:it.End])
		sp = append(sp, splice{from, f.End, lines})
		r.touch(from, f.End)
	}
	if len(sp) == 0 {
		return &snippetRefusal{kind: KindNotFound, msg: fmt.Sprintf("block #%d holds no code", r.b.Number), hint: "drop the block"}
	}
	sort.Slice(sp, func(i, j int) bool { return sp[i].from < sp[j].from })
	at := 0
	for i, s := range sp {
		if i > 0 && s.from < sp[i-1].to {
			return &snippetRefusal{kind: KindMalformed, line: s.from + 1,
				msg:  fmt.Sprintf("block #%d gives two definitions that overlap in %s (lines %d-%d)", r.b.Number, r.path, s.from+1, s.to),
				hint: "give the outer definition alone"}
		}
		r.out = append(r.out, r.file[at:s.from]...)
		r.out = append(r.out, s.lines...)
		at = s.to
	}
	r.out = append(r.out, r.file[at:]...)
	return nil
}
