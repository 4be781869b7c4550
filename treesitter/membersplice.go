package treesitter

import (
	"math"

	"github.com/fsrb/fsrb/core"
)

// A class's members are spliced as the root's children are (splice):
// an edit inside one method of a class would otherwise have the whole
// class flattened and walked again, where a chat snippet rewrites one
// method at a time. The class's item is the last outline's, its kids
// spliced and its end moved by the edit.

// bodiesOf is, for each of the nodes ids (the root's children), the
// members of its body when it is a class the walk reads as a whole
// (classBody), unlinked as topsOf leaves the root's children; nil for
// any other node. The walker's nodes must hold those bodies whole.
func (w *walker) bodiesOf(ids []nid) [][]flatNode {
	out := make([][]flatNode, len(ids))
	for i, n := range ids {
		typ, _ := w.kind(n)
		if f, ok := w.definition(typed{n, typ}); !ok || f.kind != "class" {
			continue
		}
		if b, _ := w.classBody(n); b != 0 {
			out[i] = topsOf(w.f, w.members(b))
		}
	}
	return out
}

// classBody is the body of class node n when the walk reads the class's
// kids from it alone: it is n's last named child, and every named child
// before it lies on one row (the walk's scan looks for bodies inside a
// child of several rows), but comments, which start the kids (headed
// says whether there are any). 0 when not.
func (w *walker) classBody(n nid) (body nid, headed bool) {
	for ch := w.f[n].kids; ch != 0; ch = w.f[ch].next {
		_, named := w.kind(ch)
		switch {
		case !named:
		case body != 0:
			return 0, false // a named node after the body
		case w.is(ch, rBody):
			body = ch
		case w.is(ch, rComment):
			headed = true
		case w.ep(ch).Row > w.sp(ch).Row:
			return 0, false
		}
	}
	return body, headed
}

// members are the children of body b that its level reads (body): the
// named ones, but its opening and closing tags.
func (w *walker) members(b nid) []nid {
	var ids []nid
	for ch := w.f[b].kids; ch != 0; ch = w.f[ch].next {
		if t, named := w.kind(ch); named && !bodyOpens(t) && !bodyCloses(t) {
			ids = append(ids, ch)
		}
	}
	return ids
}

// spliceMembers is splice's outline when its window is one class whose
// members the edit, bytes [lo, hi) of the new text, lies among: the
// class's item is prev's, with the items of the members around the edit
// read again. w walks the nodes of splice's first flattening, the
// root's children and the path down to the edit; ids are the root's
// children, tops their nodes unlinked, [i0, i1) the window of them and
// [from, to) prev's items of it. db and dr are the edit's change in
// bytes and lines. ok is false when the window is no such class, or its
// other members are not prev's.
func (t *Tree) spliceMembers(prev *outlineEntry, w *walker, ids []nid, tops []flatNode, i0, i1, from, to, lo, hi, db, dr int) (outline, bool) {
	if i1 != i0+1 || to != from+1 || len(tops) != len(prev.tops) || len(prev.bodies) != len(prev.tops) || prev.bodies[i0] == nil {
		return outline{}, false
	}
	// The class starts where it did: its first lines are the same (the
	// window holds the edit, after them). Its end is read again below.
	if was := prev.tops[i0]; tops[i0].startByte != was.startByte || tops[i0].startRow != was.startRow ||
		tops[i0].startCol != was.startCol || tops[i0].symbol != was.symbol {
		return outline{}, false
	}
	class := prev.items[from]
	if class.Kind != "class" || class.Kids == nil {
		return outline{}, false
	}
	b, headed := w.classBody(ids[i0])
	if b == 0 {
		return outline{}, false
	}
	mids := w.members(b)
	members := topsOf(w.f, mids)
	n := len(mids)
	j0, j1, ok := w.window(mids, members, lo, hi)
	// A window from the first member would take the comments between the
	// class's first line and its body, which the kids start with; and it
	// holds no edit before the first member's line, a line of its own:
	// the class's first lines must be as they were.
	if !ok || j0 == 0 && (headed || !w.startsLine(w.firstPoint(w.sp(mids[0]))) ||
		lo < int(members[0].startByte-members[0].startCol)) ||
		!sameAround(members, prev.bodies[i0], j0, j1, db, dr) {
		return outline{}, false
	}
	kids := class.Kids
	k0, k1 := w.itemsOf(kids, mids, j0, j1, dr)
	if k0 > k1 {
		return outline{}, false
	}

	// The members of the window whole, and the path down to them.
	syms := w.syms
	nodes, free := flattenTree(t.t, t.content, syms.flags, members[j0].startByte, members[j1-1].endByte, math.MaxUint32)
	defer free()
	if len(nodes) == 0 {
		return outline{}, false
	}
	ww := newWalker(t.Lang, syms, t.content, t.lines, nodes)
	var top nid
	for k := nodes[0].kids; k != 0; k = nodes[k].next {
		if nodes[k].startByte == tops[i0].startByte && nodes[k].symbol == tops[i0].symbol {
			top = k
			break
		}
	}
	if top == 0 {
		return outline{}, false
	}
	wb, _ := ww.classBody(top)
	if wb == 0 {
		return outline{}, false
	}
	all := ww.members(wb)
	if len(all) != n {
		return outline{}, false
	}
	mid := ww.level(all[j0:j1], levelCtx{scope: class.Name, container: true})

	class.Kids = splicedItems(kids, k0, k1, mid, dr)
	class.End = endLine(w.firstPoint(w.sp(ids[i0])), w.ep(ids[i0]))
	class.Tail = max(class.Head, w.bodyTail(b))

	items := splicedItems(prev.items, from, to, []core.Item{class}, dr)
	bodies := splicedBodies(prev.bodies, i0, i1, [][]flatNode{members}, db, dr)
	return outline{items: items, tops: tops, bodies: bodies, members: true}, true
}

// bodyTail is the first line after body b, as body reads it: its
// closing brace's line, or the line after its end.
func (w *walker) bodyTail(b nid) int {
	tail := -1
	for ch := w.f[b].kids; ch != 0; ch = w.f[ch].next {
		if t, _ := w.kind(ch); bodyCloses(t) {
			tail = int(w.firstPoint(w.sp(ch)).Row)
		}
	}
	if tail < 0 {
		tail = endLine(w.sp(b), w.ep(b))
	}
	return tail
}

// shiftedNodes is a copy of nodes moved by db bytes and dr lines (as
// shiftedBy compares them); nodes itself when nothing moved.
func shiftedNodes(nodes []flatNode, db, dr int) []flatNode {
	if db == 0 && dr == 0 || nodes == nil {
		return nodes
	}
	out := make([]flatNode, len(nodes))
	for i, n := range nodes {
		out[i] = shiftNode(n, db, dr)
	}
	return out
}
