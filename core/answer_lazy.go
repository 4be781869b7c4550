package core

import (
	"fmt"
	"strings"
)

// A lazy block: concrete stretches between omission markers. Each item
// of the block pairs with the file's item it rewrites, in order, within
// the scope the block shows: first the items whose text stands once in
// the block and once in the scope (they cannot pair otherwise), then each
// remaining item with the one item of its window between the pairs around
// it that has its structure (a definition's kind and name, a statement's
// kind and target) or its text. An item that pairs with nothing is new
// text, inserted where it stands; a stretch that pairs with nothing has
// no place; an item with two candidates is refused, naming both.
//
// Between two paired items, a marker keeps the file's text; with no
// marker, the file's text there is gone, as the block shows. A scope the
// block shows whole (a definition's body, between its first line and its
// end) keeps nothing at its edges without a marker; the outermost scope
// keeps what lies beyond the block's first and last paired items.

// step is one item of the block in a scope: a marker, an item paired
// with file item fj, or new text (fj < 0).
type step struct {
	bi     int
	marker bool
	fj     int
}

// alignEveryScope has lazy align the block against every body of the
// file, as if mayPair took them all: tests compare the two.
var alignEveryScope bool

// lazy resolves a block with markers into r.out.
func (r *resolver) lazy() *snippetRefusal {
	// The new lines hold the file's lines and the block's, each once at
	// most: one allocation instead of a growing slice.
	r.out, r.pooled = takeLines(len(r.file)+len(r.block)), true
	steps, err := r.align(r.fileItems, r.blockItems)
	if err != nil {
		return err
	}
	if paired(steps) {
		r.delta = r.firstDelta(r.fileItems, r.blockItems, steps)
		return r.emit(r.fileItems, r.blockItems, steps, 0, len(r.file), true)
	}
	// Nothing pairs at the top: the block may show members of one class, or
	// statements of one function, without the lines around them.
	var found []place
	var found1 [][]step
	var first *snippetRefusal // why a scope that pairs could not hold it
	side := r.sideOf(r.blockItems)
	var walk func(items []Item)
	walk = func(items []Item) {
		for i := range items {
			it := &items[i]
			if len(it.Kids) == 0 {
				continue
			}
			// Most bodies of a file hold nothing the block names: align
			// would pair nothing there and refuse nothing.
			if alignEveryScope || r.mayPair(it.Kids, side) {
				s, err := r.align(it.Kids, r.blockItems)
				switch {
				case err != nil && first == nil:
					first = err
				case err == nil && paired(s):
					found = append(found, place{*it, nil})
					found1 = append(found1, s)
				}
			}
			walk(it.Kids)
		}
	}
	walk(r.fileItems)
	if len(found) > 1 {
		// Scopes where an item pairs by its whole first lines win over
		// those where it pairs by name alone.
		var strong []int
		for k := range found {
			for _, st := range found1[k] {
				if st.fj >= 0 && !st.marker {
					if _, eq := r.pairs(r.blockItems[st.bi], found[k].it.Kids[st.fj]); eq {
						strong = append(strong, k)
						break
					}
				}
			}
		}
		if len(strong) == 1 {
			found, found1 = found[strong[0]:strong[0]+1], found1[strong[0]:strong[0]+1]
		}
	}
	switch len(found) {
	case 0:
		if first != nil {
			return first
		}
		return r.noPlace(r.blockItems, true)
	case 1:
		f := found[0].it
		r.delta = r.firstDelta(f.Kids, r.blockItems, found1[0])
		r.out = append(r.out, r.file[:f.Head]...)
		if err := r.emit(f.Kids, r.blockItems, found1[0], f.Head, f.Tail, true); err != nil {
			return err
		}
		r.out = append(r.out, r.file[f.Tail:]...)
		return nil
	}
	var ws []string
	for _, p := range found {
		ws = append(ws, r.where(p))
	}
	return &snippetRefusal{kind: KindAmbiguous, line: found[0].it.Start + 1, candidates: r.candidates(found),
		msg:  fmt.Sprintf("block #%d could go in %d places of %s: %s", r.b.Number, len(found), r.path, strings.Join(ws, "; ")),
		hint: "add the enclosing definition's first line to the block, so that it shows which one it edits"}
}

func paired(steps []step) bool {
	for _, s := range steps {
		if s.fj >= 0 && !s.marker {
			return true
		}
	}
	return false
}

// firstDelta is the indentation change of the first paired item.
func (r *resolver) firstDelta(F, B []Item, steps []step) indentDelta {
	for _, s := range steps {
		if !s.marker && s.fj >= 0 {
			return blockIndent(r.block[B[s.bi].Start], r.file[F[s.fj].Start])
		}
	}
	return indentDelta{}
}

// pairs reports whether block item b may rewrite file item f, and whether
// by equal text.
func (r *resolver) pairs(b, f Item) (ok, equal bool) {
	marked := r.hasMarker(b)
	text := ""
	if !marked {
		text = textOf(r.block, b)
	}
	return r.pairsAs(b, text, marked, f)
}

// pairsAs is pairs with b's text (textOf, when it holds no marker) and
// whether it holds a marker already read.
func (r *resolver) pairsAs(b Item, text string, marked bool, f Item) (ok, equal bool) {
	if !marked && b.End-b.Start == f.End-f.Start && isTextOf(text, r.file[f.Start:f.End]) {
		return true, true
	}
	if b.Definition() || f.Definition() {
		// An item with markers inside shows its first lines whole: equal
		// there, it is the same item as surely as by equal text.
		same := r.sameDefinition(b, f)
		return same, same && marked && b.Head > b.Start && f.Head > f.Start &&
			sameTrimmed(r.block[b.Start:b.Head], r.file[f.Start:f.Head])
	}
	return b.Key != "" && b.Key == f.Key, false
}

// blockSide is what align reads of a block's items, whatever scope of
// the file they are aligned against: a block that shows members or
// statements without the lines around them is aligned against every
// body of the file in turn.
type blockSide struct {
	marker, marked []bool   // isMarker, hasMarker of each item
	text           []string // textOf each item that holds no marker
	count          map[string]int
	lengths        smallSet[int] // the line counts of those items

	// What a scope's item needs to pair with any item (mayPair): the
	// definitions' kind families and names, the other items' keys, and
	// the first lines (trimmed) of the items that hold no marker.
	names  smallSet[definitionName]
	keys   smallSet[string]
	firsts smallSet[string]
	// A block item of no lines: mayPair cannot rule a scope out by
	// first lines.
	empty bool
}

type definitionName struct{ family, name string }

// sideOf reads B's side once for the resolver.
func (r *resolver) sideOf(B []Item) *blockSide {
	if len(B) == 0 {
		return &blockSide{}
	}
	if s := r.sides[&B[0]]; s != nil && len(s.marker) == len(B) {
		return s
	}
	s := &blockSide{marker: make([]bool, len(B)), marked: make([]bool, len(B)), text: make([]string, len(B))}
	for i, it := range B {
		s.marker[i], s.marked[i] = r.isMarker(it), r.hasMarker(it)
		switch {
		case s.marker[i]:
			continue
		case it.Definition():
			s.names.add(definitionName{kindFamily(it.Kind), it.Name})
		case it.Key != "":
			s.keys.add(it.Key)
		}
		if !s.marked[i] {
			s.text[i] = textOf(r.block, it)
			put(&s.count, s.text[i], s.count[s.text[i]]+1)
			s.lengths.add(it.End - it.Start)
			if it.End > it.Start {
				s.firsts.add(strings.TrimSpace(r.block[it.Start]))
			} else {
				s.empty = true
			}
		}
	}
	if r.sides == nil {
		r.sides = map[*Item]*blockSide{}
	}
	r.sides[&B[0]] = s
	return s
}

// put sets m[k] = v, making m first: most blocks need few of a side's
// maps, and a nil map reads as empty.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}

// mayPair reports whether some item of the scope F may pair with some
// item of the block side: pairsAs takes equal text (so an equal first
// line and as many lines), a definition of the same kind family and name,
// or, between two items that are no definitions, the same key. When it
// reports false, align pairs nothing in F and refuses nothing: its
// refusals name an item that pairs, or a definition that stands
// elsewhere in F, which pairsAs would take too.
func (r *resolver) mayPair(F []Item, side *blockSide) bool {
	if side.empty {
		return true
	}
	for j := range F {
		f := &F[j]
		switch {
		case f.Definition():
			if side.names.has(definitionName{kindFamily(f.Kind), f.Name}) {
				return true
			}
		case f.Key != "":
			if side.keys.has(f.Key) {
				return true
			}
		}
		if n := f.End - f.Start; n > 0 && side.lengths.has(n) && side.firsts.has(strings.TrimSpace(r.file[f.Start])) {
			return true
		}
	}
	return false
}

// align pairs the items of one scope; emit checks that every stretch has
// its place.
func (r *resolver) align(F, B []Item) ([]step, *snippetRefusal) {
	side := r.sideOf(B)
	steps := make([]step, len(B))
	for i := range B {
		steps[i] = step{bi: i, marker: side.marker[i], fj: -1}
	}
	// Anchors: text that stands once in the block and once in the scope,
	// in an order both agree on. Equal text has as many lines: only the
	// scope's items of a length some block item has are read, not every
	// class of a file a method's block is aligned against.
	var fileText map[string][]int
	for j := range F {
		f := &F[j]
		if n := f.End - f.Start; side.lengths.has(n) && (n == 0 || side.firsts.has(strings.TrimSpace(r.file[f.Start]))) {
			t := textOf(r.file, *f)
			put(&fileText, t, append(fileText[t], j))
		}
	}
	var cand []step
	for i := range B {
		if t := side.text[i]; !side.marked[i] && side.count[t] == 1 && len(fileText[t]) == 1 {
			cand = append(cand, step{bi: i, fj: fileText[t][0]})
		}
	}
	for _, a := range increasing(cand) {
		steps[a.bi].fj = a.fj
	}
	// The rest, each in the window between the pairs around it.
	lo := -1
	for i := range steps {
		if steps[i].marker {
			continue
		}
		if steps[i].fj >= 0 {
			lo = steps[i].fj
			continue
		}
		hi := len(F)
		for k := i + 1; k < len(steps); k++ {
			if !steps[k].marker && steps[k].fj >= 0 {
				hi = steps[k].fj
				break
			}
		}
		var any, eq []int
		for j := lo + 1; j < hi; j++ {
			if ok, equal := r.pairsAs(B[i], side.text[i], side.marked[i], F[j]); ok {
				any = append(any, j)
				if equal {
					eq = append(eq, j)
				}
			}
		}
		switch {
		case len(any) == 1:
			steps[i].fj, lo = any[0], any[0]
		case len(eq) == 1:
			steps[i].fj, lo = eq[0], eq[0]
		case len(any) > 1:
			ps := make([]place, len(any))
			var ws []string
			for k, j := range any {
				ps[k] = place{it: F[j]}
				ws = append(ws, fmt.Sprintf("line %d (%q)", F[j].Start+1, strings.TrimSpace(r.file[F[j].Start])))
			}
			return nil, &snippetRefusal{kind: KindAmbiguous, line: F[any[0]].Start + 1, candidates: r.candidates(ps),
				msg:  fmt.Sprintf("block #%d: line %d, %q, could rewrite %d places of %s: %s", r.b.Number, B[i].Start+1, strings.TrimSpace(r.block[B[i].Start]), len(any), r.path, strings.Join(ws, ", ")),
				hint: "add a line the file holds next to the one you mean to the block, or use a SEARCH/REPLACE block"}
		default:
			if B[i].Definition() {
				// A definition the scope holds elsewhere would be written
				// twice. In the window, pairs has looked already.
				for j := range F {
					if j > lo && j < hi {
						continue
					}
					if r.sameDefinition(B[i], F[j]) {
						return nil, &snippetRefusal{kind: KindAmbiguous, line: F[j].Start + 1,
							msg:  fmt.Sprintf("block #%d: %s %s stands at line %d of %s, out of the order the block gives it", r.b.Number, B[i].Kind, B[i].Name, F[j].Start+1, r.path),
							hint: "give the definitions in the file's order, or use a SEARCH/REPLACE block"}
					}
				}
			}
		}
	}
	return steps, nil
}

// increasing keeps the longest run of anchors whose file items are in the
// block's order (patience diff's rule).
func increasing(c []step) []step {
	if len(c) == 0 {
		return nil
	}
	best := make([]int, len(c))
	prev := make([]int, len(c))
	end := 0
	for i := range c {
		best[i], prev[i] = 1, -1
		for k := 0; k < i; k++ {
			if c[k].fj < c[i].fj && best[k]+1 > best[i] {
				best[i], prev[i] = best[k]+1, k
			}
		}
		if best[i] > best[end] {
			end = i
		}
	}
	var out []step
	for i := end; i >= 0; i = prev[i] {
		out = append(out, c[i])
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// noPlace refuses a block (whole) or a stretch between markers whose
// concrete lines pair with nothing.
func (r *resolver) noPlace(B []Item, whole bool) *snippetRefusal {
	first := ""
	for _, it := range B {
		if !r.isMarker(it) {
			first = strings.TrimSpace(r.block[it.Start])
			break
		}
	}
	if !whole {
		return &snippetRefusal{kind: KindNotFound,
			msg:  fmt.Sprintf("block #%d: the lines from %q on stand between omission markers and match no line of %s, so they could go anywhere the markers keep", r.b.Number, first, r.path),
			hint: "add to the block the line of the file they follow or precede, or use a SEARCH/REPLACE block"}
	}
	return &snippetRefusal{kind: KindNotFound,
		msg:  fmt.Sprintf("block #%d: nothing of it stands in %s (from %q on), so its markers have no place to keep text around", r.b.Number, r.path, first),
		hint: "add to the block a line the file holds next to the change, such as the enclosing definition's first line; or check the path"}
}

// emit writes the new lines of one scope, file lines [flo, fhi). open:
// the scope keeps what lies beyond its first and last paired items.
func (r *resolver) emit(F, B []Item, steps []step, flo, fhi int, open bool) *snippetRefusal {
	// Every stretch between markers must hold a pair, except one that
	// touches a closed edge, which places it.
	start := 0
	for k := 0; k <= len(steps); k++ {
		if k < len(steps) && !steps[k].marker {
			continue
		}
		stretch := steps[start:k]
		edge := !open && (start == 0 || k == len(steps))
		if len(stretch) > 0 && !paired(stretch) && !edge {
			return r.noPlace(itemsOf(B, stretch), false)
		}
		if err := r.besideMarker(F, B, steps, start, k); err != nil {
			return err
		}
		start = k + 1
	}
	fc := flo
	var marker *step
	prevEnd := -1 // the block line after the last item written
	first := true
	for k := range steps {
		s := &steps[k]
		it := B[s.bi]
		if s.marker {
			marker = s
			continue
		}
		if s.fj < 0 {
			if r.hasMarker(it) {
				return &snippetRefusal{kind: KindNotFound,
					msg:  fmt.Sprintf("block #%d: line %d, %q, has omission markers inside, but %s holds nothing it names there, so they would keep nothing", r.b.Number, it.Start+1, strings.TrimSpace(r.block[it.Start]), r.path),
					hint: "check the name and the path; to add new code, write it out whole"}
			}
			if marker != nil || first && open {
				// What the marker (or the open edge) keeps comes first: the new
				// text goes right before the next paired item.
				to := fhi
				for _, n := range steps[k+1:] {
					if !n.marker && n.fj >= 0 {
						to = F[n.fj].Start
						if B[n.bi].Lead < B[n.bi].Start {
							to = F[n.fj].Lead
						}
						break
					}
				}
				r.out = append(r.out, r.file[fc:to]...)
				if marker != nil {
					r.kept = append(r.kept, keptOf(B[marker.bi].Start, fc, to, r.file))
					if n := len(r.out); n > 0 && strings.TrimSpace(r.out[n-1]) != "" {
						// The new text's own spacing, unless the kept text ends
						// with the file's.
						r.out = r.blockLines(r.out, B[marker.bi].End, it.Lead)
					}
				}
				fc, marker = to, nil
			} else if prevEnd >= 0 {
				r.out = r.blockLines(r.out, prevEnd, it.Lead)
			}
			r.out = r.blockLines(r.out, it.Lead, it.End)
			prevEnd, first = it.End, false
			continue
		}
		f := F[s.fj]
		fs, bs := f.Start, it.Start
		if it.Lead < it.Start {
			fs, bs = f.Lead, it.Lead
		}
		keepTo := fs
		if marker == nil && !(first && open) {
			// No marker between: the file's items in between are gone, but a
			// definition's own doc comment stays when the block gives none.
			keepTo = f.Lead
			if prevEnd >= 0 {
				r.out = r.blockLines(r.out, prevEnd, bs)
			}
			r.out = append(r.out, r.file[max(keepTo, fc):fs]...)
		} else {
			r.out = append(r.out, r.file[fc:fs]...)
			if marker != nil {
				r.kept = append(r.kept, keptOf(B[marker.bi].Start, fc, fs, r.file))
			}
		}
		if r.hasMarker(it) {
			if len(it.Kids) == 0 || len(f.Kids) == 0 {
				return &snippetRefusal{kind: KindMalformed, line: f.Start + 1,
					msg:  fmt.Sprintf("block #%d: the omission marker inside line %d, %q, stands where fsrb cannot tell which lines of %s it keeps", r.b.Number, it.Start+1, strings.TrimSpace(r.block[it.Start]), r.path),
					hint: "write out that statement whole, or put the marker between whole statements"}
			}
			steps2, err := r.align(f.Kids, it.Kids)
			if err != nil {
				return err
			}
			r.out = r.blockLines(r.out, bs, it.Head)
			if err := r.emit(f.Kids, it.Kids, steps2, f.Head, f.Tail, false); err != nil {
				return err
			}
			r.out = r.blockLines(r.out, it.Tail, it.End)
		} else {
			r.out = r.blockLines(r.out, bs, it.End)
		}
		r.touch(f.Start, f.End)
		fc, prevEnd, marker, first = f.End, it.End, nil, false
	}
	switch {
	case marker != nil || open:
		r.out = append(r.out, r.file[fc:fhi]...)
		if marker != nil {
			r.kept = append(r.kept, keptOf(B[marker.bi].Start, fc, fhi, r.file))
		}
	case prevEnd >= 0 && len(B) > 0:
		// A scope shown whole: its last lines are the block's (blank lines
		// before the closing line).
		last := B[len(B)-1].End
		r.out = r.blockLines(r.out, prevEnd, max(prevEnd, last))
	}
	return nil
}

// besideMarker refuses new text that stands between a marker and the
// nearest paired item of its stretch, steps[start:k], when structure
// cannot tell it from the file's item on the other side of the marker:
// both with no structure (no definition, no statement target), it may be
// new text or a rewrite of the first kept item, which only similarity
// could tell.
func (r *resolver) besideMarker(F, B []Item, steps []step, start, k int) *snippetRefusal {
	structured := func(it Item) bool { return it.Definition() || it.Key != "" }
	check := func(s step, kept int) *snippetRefusal {
		it := B[s.bi]
		if s.fj >= 0 || structured(it) || r.isComment(r.block, it) || kept < 0 || kept >= len(F) || structured(F[kept]) {
			return nil
		}
		return &snippetRefusal{kind: KindAmbiguous, line: F[kept].Start + 1,
			msg: fmt.Sprintf("block #%d: line %d, %q, stands next to an omission marker and matches no line of %s: it could be new text or rewrite line %d, %q, which the marker keeps",
				r.b.Number, it.Start+1, strings.TrimSpace(r.block[it.Start]), r.path, F[kept].Start+1, strings.TrimSpace(r.file[F[kept].Start])),
			hint: "show the line of the file it comes after or replaces between it and the marker, or use a SEARCH/REPLACE block"}
	}
	last := -1 // the last file item paired before the stretch's end
	for _, s := range steps[:k] {
		if !s.marker && s.fj >= 0 {
			last = s.fj
		}
	}
	if k < len(steps) { // a marker after: new text at the stretch's end
		for i := k - 1; i >= start && steps[i].fj < 0; i-- {
			if err := check(steps[i], last+1); err != nil {
				return err
			}
		}
	}
	if start > 0 { // a marker before: new text at the stretch's start
		first := len(F)
		for _, s := range steps[start:] {
			if !s.marker && s.fj >= 0 {
				first = s.fj
				break
			}
		}
		for i := start; i < k && steps[i].fj < 0; i++ {
			if err := check(steps[i], first-1); err != nil {
				return err
			}
		}
	}
	return nil
}

// blockLines appends the block's lines [from, to), re-indented.
func (r *resolver) blockLines(out []string, from, to int) []string {
	to = min(to, len(r.block))
	if from >= to {
		return out
	}
	n := len(out)
	for i, l := range r.block[from:to] {
		if !r.marks[from+i] {
			out = append(out, l)
		}
	}
	copy(out[n:], r.delta.apply(out[n:]))
	return out
}

func itemsOf(B []Item, steps []step) []Item {
	var out []Item
	for _, s := range steps {
		out = append(out, B[s.bi])
	}
	return out
}

// keptOf is what a marker on block line m keeps: the file's lines
// [from, to), without the blank lines at their ends.
func keptOf(m, from, to int, file []string) Kept {
	for from < to && strings.TrimSpace(file[from]) == "" {
		from++
	}
	for to > from && strings.TrimSpace(file[to-1]) == "" {
		to--
	}
	return Kept{Marker: m + 1, From: from + 1, To: to}
}
