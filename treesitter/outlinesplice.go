package treesitter

import (
	"math"
	"sort"
	"strings"
	"unsafe"

	"github.com/fsrb/fsrb/core"
)

// outline is the items of a text and, when a later outline of an edited
// text may be spliced from them, the root's children (tops) they were
// read from: the items are the plain walk of a tree with no error, on
// lines that are the text's own (not dedented, not repaired).
type outline struct {
	items  []core.Item
	tops   []flatNode
	bodies [][]flatNode // per top, a class's members (bodiesOf); nil for others
	// members: spliced inside one class (spliceMembers), which tests
	// count.
	members bool
}

// rootKids are the root's children of a flattened tree, in order.
func rootKids(nodes []flatNode) []nid {
	n := 0
	for k := nodes[0].kids; k != 0; k = nodes[k].next {
		n++
	}
	ids := make([]nid, 0, n)
	for k := nodes[0].kids; k != 0; k = nodes[k].next {
		ids = append(ids, k)
	}
	return ids
}

// topsOf is the nodes ids of a flattened tree, unlinked.
func topsOf(nodes []flatNode, ids []nid) []flatNode {
	tops := make([]flatNode, len(ids))
	for i, k := range ids {
		tops[i] = nodes[k]
		tops[i].kids, tops[i].next = 0, 0
	}
	return tops
}

// outline is the tree's outline (Outline), spliced from prev, an outline
// of an earlier text of the same file, when the edit between them lets
// it; spliced says which it was. plain: the tree's content is the text
// outlined, not dedented, so that its outline may be spliced, now or
// later.
func (t *Tree) outline(prev *outlineEntry, plain bool) (o outline, spliced bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	hasError := t.t.RootNode().HasError()
	if hasError || t.Lang.Name == "python" {
		if items, ok := t.repairedOutline(hasError); ok {
			return outline{items: items}, false
		}
	}
	if hasError || !plain {
		return outline{items: outlineOf(t.Lang, t.content, t.lines, t.t, nil)}, false
	}
	if prev != nil && prev.tops != nil {
		if o, ok := t.splice(prev); ok {
			return o, true
		}
	}
	items, tops, bodies := outlineTops(t.Lang, t.content, t.lines, t.t, nil)
	return outline{items: items, tops: tops, bodies: bodies}, false
}

// splice reads the tree's outline as prev's with the top-level items an
// edit touched read again. A resolver outlines each file a chat snippet
// writes twice, before and after (the stability check), and an answer
// streaming in writes a file block by block: walking the whole tree for
// each costs as much as the rest of the block's check. The walk is
// local because the outline is: a top-level node's items are read from
// the node alone, but for its doc comments and attributes, which join
// the definition right below them (leads).
//
// The window read again is the root's children that overlap the edited
// lines (the two around them, when the edit lies between nodes), and
// more until the nodes around it are boundaries (nodes of items that no
// lead joins: no comment or attribute) and the node after it starts a
// line of its own. The root's children outside it must be prev's, at
// the same places before the edit and shifted by it after: then their items
// are prev's too. ok is false when they are not, or nothing is known to
// be the same.
func (t *Tree) splice(prev *outlineEntry) (outline, bool) {
	// The content is never written once parsed (Cache.Parse copies it).
	text := unsafe.String(unsafe.SliceData(t.content), len(t.content))
	old := prev.text
	p := core.CommonPrefix(old, text)
	s := core.CommonSuffix(old[p:], text[p:])
	lo := strings.LastIndexByte(text[:p], '\n') + 1
	hi := len(text) - s
	if k := strings.IndexByte(text[hi:], '\n'); k >= 0 {
		hi += k + 1
	} else {
		hi = len(text)
	}
	syms := symbolsOf(t.Lang)
	// The root's children first, to choose the window, and below them
	// only the path to the edit: the members of a class it lies in, to
	// splice that class's items alone (spliceMembers).
	heads, freeHeads := flattenTree(t.t, t.content, syms.flags, uint32(lo), uint32(hi), math.MaxUint32)
	defer freeHeads()
	if len(heads) == 0 {
		return outline{}, false
	}
	ids := rootKids(heads)
	tops := topsOf(heads, ids)
	n := len(tops)
	if n == 0 {
		return outline{}, false
	}
	w := newWalker(t.Lang, syms, t.content, t.lines, heads)
	i0, i1, ok := w.window(ids, tops, lo, hi)
	if !ok {
		return outline{}, false
	}
	db, dr := len(text)-len(old), len(t.lines)-prev.lines
	was := prev.tops
	after := n - i1
	if !sameAround(tops, was, i0, i1, db, dr) {
		return outline{}, false
	}
	from, to := w.itemsOf(prev.items, ids, i0, i1, dr)
	if from > to {
		return outline{}, false
	}
	if o, ok := t.spliceMembers(prev, w, ids, tops, i0, i1, from, to, lo, hi, db, dr); ok {
		return o, true
	}

	lo32, hi32 := tops[i0].startByte, tops[i1-1].endByte
	nodes, free := flattenTree(t.t, t.content, syms.flags, lo32, hi32, 1)
	defer free()
	if len(nodes) == 0 {
		return outline{}, false
	}
	win := ids[:0]
	for k, i := nodes[0].kids, 0; k != 0; k, i = nodes[k].next, i+1 {
		if i >= i0 && i < i1 {
			win = append(win, k)
		}
	}
	w = newWalker(t.Lang, syms, t.content, t.lines, nodes)
	mid := w.level(win, levelCtx{})

	items := splicedItems(prev.items, from, to, mid, dr)
	var bodies [][]flatNode
	if prev.bodies != nil {
		bodies = splicedBodies(prev.bodies, i0, len(was)-after, w.bodiesOf(win), db, dr)
	}
	return outline{items: items, tops: tops, bodies: bodies}, true
}

// splicedItems is items with [from, to) replaced by mid, and those after
// it moved by dr lines.
func splicedItems(items []core.Item, from, to int, mid []core.Item, dr int) []core.Item {
	out := make([]core.Item, 0, from+len(mid)+len(items)-to)
	out = append(out, items[:from]...)
	out = append(out, mid...)
	return append(out, shifted(items[to:], dr)...)
}

// splicedBodies is bodies (bodiesOf's) with [from, to) replaced by mid,
// and those after it moved by db bytes and dr lines.
func splicedBodies(bodies [][]flatNode, from, to int, mid [][]flatNode, db, dr int) [][]flatNode {
	out := make([][]flatNode, 0, from+len(mid)+len(bodies)-to)
	out = append(out, bodies[:from]...)
	out = append(out, mid...)
	for _, b := range bodies[to:] {
		out = append(out, shiftedNodes(b, db, dr))
	}
	return out
}

// boundary reports whether n, a child of the root, is a node whose item
// no lead joins: a named node that starts a line and is no comment or
// attribute.
func (w *walker) boundary(n nid) bool {
	typ, named := w.kind(n)
	if !named || typ == "ERROR" || w.is(n, rComment) || w.is(n, rDecorator) {
		return false
	}
	return w.startsLine(w.firstPoint(w.sp(n)))
}

// window is the range [i0, i1) of sibling nodes ids (nodes, unlinked)
// that a splice reads again for an edit of bytes [lo, hi): those that
// overlap it (the two around it, when it lies between them), and more
// until the nodes around them are boundaries and the node after them
// starts a line of its own. ok is false when it is empty.
func (w *walker) window(ids []nid, nodes []flatNode, lo, hi int) (i0, i1 int, ok bool) {
	n := len(nodes)
	i0 = sort.Search(n, func(i int) bool { return nodes[i].endByte > uint32(lo) })
	i1 = sort.Search(n, func(i int) bool { return nodes[i].startByte >= uint32(hi) })
	if i0 >= i1 {
		// The edit is between nodes (blank lines, say): the nodes on
		// either side, whose leads it may join or part.
		i0, i1 = max(0, i1-1), min(n, i1+1)
	}
	for i0 > 0 && !w.boundary(ids[i0-1]) {
		i0--
	}
	// After the window: a boundary, then a node on a line of its own,
	// where the items of the nodes after the edit start.
	for i1 < n && (!w.boundary(ids[i1-1]) || w.firstPoint(w.sp(ids[i1])).Row < uint32(endLine(w.sp(ids[i1-1]), w.ep(ids[i1-1])))) {
		i1++
	}
	return i0, i1, i0 < i1
}

// sameAround reports whether the nodes outside window [i0, i1) of now
// are was's, the same before it and moved by db bytes and dr lines after
// it: then their items are the earlier outline's too.
func sameAround(now, was []flatNode, i0, i1, db, dr int) bool {
	after := len(now) - i1
	if i0+after > len(was) {
		return false
	}
	for k := range i0 {
		if now[k] != was[k] {
			return false
		}
	}
	for k := range after {
		if !shiftedBy(was[len(was)-after+k], now[i1+k], db, dr) {
			return false
		}
	}
	return true
}

// itemsOf is the range [from, to) of items, the earlier outline's of
// sibling nodes ids, that window [i0, i1) of them reads; dr is the
// edit's change in lines. The items of the nodes before the window
// start before the line after the last of them, and those after it from
// the line after the window's last node: a boundary starts a line, so a
// node on its last line after it starts none and has no item.
func (w *walker) itemsOf(items []core.Item, ids []nid, i0, i1, dr int) (from, to int) {
	from, to = 0, len(items)
	if i0 > 0 {
		end := endLine(w.sp(ids[i0-1]), w.ep(ids[i0-1]))
		from = sort.Search(len(items), func(i int) bool { return items[i].Start >= end })
	}
	if i1 < len(ids) {
		end := int(w.firstPoint(w.sp(ids[i1])).Row) - dr
		to = sort.Search(len(items), func(i int) bool { return items[i].Start >= end })
	}
	return from, to
}

// shiftedBy reports whether b is a, moved by db bytes and dr lines.
func shiftedBy(a, b flatNode, db, dr int) bool {
	return shiftNode(a, db, dr) == b
}

// shiftNode is n moved by db bytes and dr lines.
func shiftNode(n flatNode, db, dr int) flatNode {
	n.startByte = uint32(int(n.startByte) + db)
	n.endByte = uint32(int(n.endByte) + db)
	n.startRow = uint32(int(n.startRow) + dr)
	n.endRow = uint32(int(n.endRow) + dr)
	return n
}

// shifted is a copy of items moved by d lines; items itself when d is 0
// (outlines are shared, never modified).
func shifted(items []core.Item, d int) []core.Item {
	if d == 0 || len(items) == 0 {
		return items
	}
	out := make([]core.Item, len(items))
	for i, it := range items {
		it.Lead += d
		it.Start += d
		it.End += d
		it.Head += d
		it.Tail += d
		if it.Kids != nil {
			it.Kids = shifted(it.Kids, d)
		}
		out[i] = it
	}
	return out
}
