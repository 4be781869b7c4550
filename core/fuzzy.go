package core

import (
	"fmt"
	"strings"
)

// The fuzzy ladder (docs/ARCHITECTURE.md "Matching"). With Options.Fuzzy,
// a block whose SEARCH matches nowhere exactly climbs these rungs. They are
// cumulative: each keeps what the ones below it forgive. Each rung must find
// exactly one place; a rung that finds several stops the climb (ambiguous,
// naming the rung), and the rung that matched is recorded in the block's
// result and in a warning. No rung but elision matches more lines than
// SEARCH has.
//
// Rungs 1-4 compare whole lines, each forgiving more; elision and partial
// lines compare pieces as rung 4 does. Blank edges and inner whitespace
// come last, after every rung that forgives less: they compare whole lines
// as rung 4 does, the last one also forgiving what the one before does.

// rung is a step of the ladder.
type rung int

const (
	rungExact      rung = iota
	rungTrailing        // 1: trailing whitespace ignored
	rungIndent          // 2: leading indentation ignored; REPLACE re-indented
	rungTypo            // 3: typography normalized
	rungNumbers         // 4: copied line-number prefixes stripped
	rungElision         // 5: "..." lines stand for the lines between pieces
	rungPartial         // 6: partial first and last lines widened to whole lines
	rungBlankEdges      // 7: blank lines at SEARCH's start and end dropped (aider forgives them)
	rungSpaces          // 8: runs of spaces and tabs inside lines compared as one space
)

// rungNames are the stable names in BlockResult.Rung (and --json).
var rungNames = [...]string{"exact", "trailing-whitespace", "indentation", "typography", "line-numbers", "elision", "partial-line", "blank-lines", "inner-whitespace"}

// rungDoes says what a rung forgives, after "matched only after".
var rungDoes = [...]string{
	"",
	"ignoring trailing whitespace",
	"ignoring leading indentation",
	"normalizing typography (curly quotes, dashes, special spaces, ellipses, zero-width characters)",
	"stripping line-number prefixes copied from a file viewer",
	"expanding `...` elision lines",
	"widening a partial line to whole lines",
	"dropping blank lines at the start and end of SEARCH (and as many of REPLACE's)",
	"comparing runs of spaces and tabs inside lines as one space",
}

func (r rung) String() string { return rungNames[r] }

// span is a range of offsets [start, end).
type span struct{ start, end int }

// fplace is a place found by a rung, in the doc's text.
type fplace struct {
	start, end int    // whole lines of d.text()
	pieces     []span // elision: where each piece matched, in order
	pre, post  string // partial: the file's text kept before and after the cut
}

// ladder is one block's climb.
type ladder struct {
	b       *Block
	d       *doc
	search  []string // SEARCH lines, without "\n"
	replace []string // REPLACE lines
	style   numStyle // the line-number prefixes SEARCH carries, if any
	// hintLo and hintHi are the lines those prefixes number (1-based, in
	// the file as it was read); 0 without numbers.
	hintLo, hintHi int
	view           *normView
	spaces         *spaceView // rung 8's view of the file, built when it is reached
}

func newLadder(b *Block, d *doc) *ladder {
	return &ladder{b: b, d: d, search: splitBody(b.Search), replace: splitBody(b.Replace)}
}

// splitBody cuts an LF text of whole lines into lines.
func splitBody(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func joinBody(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

func (l *ladder) normView() *normView {
	if l.view == nil {
		l.view = viewOf(l.d)
	}
	return l.view
}

// lines returns SEARCH and REPLACE as rung r sees them: from rung 4 up,
// without the line-number prefixes SEARCH carries; from rung 7 up, without
// SEARCH's blank first and last lines, and as many of REPLACE's.
func (l *ladder) lines(r rung) (search, replace []string) {
	search, replace = l.search, l.replace
	if r >= rungNumbers && l.style != numNone {
		search, replace = stripNumbers(search, l.style), stripNumbers(replace, l.style)
	}
	if r >= rungBlankEdges {
		search, replace = trimBlankEdges(search, replace)
	}
	return search, replace
}

// trimBlankEdges drops the blank lines at the start and the end of search,
// and up to as many blank lines at the start and the end of replace: a
// model that wrapped SEARCH in blank lines usually wrapped REPLACE too, and
// the file keeps its own blank lines around the match.
func trimBlankEdges(search, replace []string) ([]string, []string) {
	lead, trail := blankRun(search, false), blankRun(search, true)
	if lead == len(search) {
		return search, replace // blank lines only: nothing left to match
	}
	search = search[lead : len(search)-trail]
	rl := min(lead, blankRun(replace, false))
	replace = replace[rl:]
	rt := min(trail, blankRun(replace, true))
	return search, replace[:len(replace)-rt]
}

// blankRun counts the blank lines at the start (or, from the end, at the
// end) of lines.
func blankRun(lines []string, fromEnd bool) int {
	n := 0
	for n < len(lines) {
		l := lines[n]
		if fromEnd {
			l = lines[len(lines)-1-n]
		}
		if !isBlank(l) {
			break
		}
		n++
	}
	return n
}

// climb runs the ladder. ok is false when no rung found a place; otherwise
// the match applies or carries the problem that stopped the climb.
func (v *validator) climb(b *Block, d *doc) (m match, ok bool) {
	l := newLadder(b, d)
	l.style = detectNumbers(l.search)
	if l.style != numNone {
		l.hintLo, l.hintHi = numHint(l.search, l.style)
	}
	for r := rungTrailing; r <= rungSpaces; r++ {
		places := l.places(r)
		var note *Problem
		if r >= rungNumbers && l.hintLo > 0 && len(places) > 0 {
			places, note = v.byNumbers(l, places)
		}
		switch {
		case len(places) == 1:
			m := v.fuzzyMatch(l, r, places[0])
			if note != nil && m.problem == nil {
				v.plan.Problems = append(v.plan.Problems, *note)
			}
			return m, true
		case len(places) > 1:
			return match{problem: v.fuzzyAmbiguous(l, r, places)}, true
		}
	}
	return match{}, false
}

// byNumbers uses the line numbers a model copied with SEARCH as Roo's
// :start_line: is used (placeHinted): among several places, the one that
// overlaps the numbered lines (or, when several do, the one that starts at
// the first of them); a single place elsewhere still applies, with a note.
// The numbers refer to the file as it was read, so they are mapped
// through the blocks applied before; a hunk placed inside part of a file
// (locateIn) has no such mapping and keeps its places.
func (v *validator) byNumbers(l *ladder, places []fplace) ([]fplace, *Problem) {
	var t *target
	for _, c := range v.order {
		if c.doc == l.d {
			t = c
		}
	}
	if t == nil {
		return places, nil
	}
	lo, _, ok := t.origLine(l.hintLo)
	if !ok {
		lo = l.hintLo
	}
	hi := lo + l.hintHi - l.hintLo
	var near, starts []fplace
	for _, p := range places {
		first := l.d.lineOf(p.start) + 1
		last := first + strings.Count(l.d.text()[p.start:p.end], "\n") - 1
		if first <= hi && last >= lo {
			near = append(near, p)
		}
		if first == lo {
			starts = append(starts, p)
		}
	}
	switch {
	case len(places) > 1 && len(near) == 1:
		return near, nil
	case len(places) > 1 && len(starts) == 1:
		return starts, nil
	case len(places) == 1 && len(near) == 0:
		b := l.b
		line := l.d.lineOf(places[0].start) + 1
		return places, &Problem{
			Kind: KindLineHint, Severity: SeverityInfo, Block: b.Number, Path: b.Path, Span: b.Span, Line: line,
			Message: fmt.Sprintf("block #%d: the line numbers copied into SEARCH say line %d, but the text matches only at line %d; applied there", b.Number, l.hintLo, line),
			Hint:    "check that this is the place you meant",
		}
	}
	return places, nil
}

// places returns where rung r finds SEARCH (up to maxOccurrences places).
func (l *ladder) places(r rung) []fplace {
	search, _ := l.lines(r)
	switch r {
	case rungTrailing, rungIndent:
		want := make([]string, len(search))
		for i, s := range search {
			want[i] = lineKey(s, r == rungIndent)
		}
		return l.wholePlaces(findLinePlaces(l.d.text(), want, r == rungIndent, maxOccurrences), nil)
	case rungTypo:
		return l.typoPlaces(search)
	case rungNumbers:
		if l.style == numNone {
			return nil // nothing to strip: rung 3 already tried this
		}
		return l.typoPlaces(search)
	case rungElision:
		return l.elisionPlaces(search)
	case rungPartial:
		return l.partialPlaces(search)
	case rungBlankEdges:
		if len(search) == len(l.search) {
			return nil // no blank edge to drop: rung 4 already tried this
		}
		return l.typoPlaces(search)
	case rungSpaces:
		return l.spacePlaces(search)
	}
	return nil
}

// spacePlaces is rung 8: whole lines compared as rung 7 does, with every
// run of blanks inside a line as one space ("function   sum(a,   b)" is
// "function sum(a, b)").
func (l *ladder) spacePlaces(search []string) []fplace {
	want := make([]string, len(search))
	differs := false
	for i, s := range search {
		want[i] = spaceKey(s)
		differs = differs || want[i] != trimBlank(normTypo(s))
	}
	if l.spaces == nil {
		l.spaces = newSpaceView(l.normView())
	}
	sv := l.spaces
	if !differs && !sv.differs {
		return nil // no run of blanks on either side: rung 7 already tried this
	}
	spans := findLinePlaces(sv.keys, want, true, maxOccurrences)
	out := make([]fplace, len(spans))
	for i, sp := range spans {
		out[i] = fplace{start: sv.orig(sp.start), end: sv.orig(sp.end)}
	}
	return out
}

func (l *ladder) typoPlaces(search []string) []fplace {
	nv := l.normView()
	want := make([]string, len(search))
	for i, s := range search {
		want[i] = trimBlank(normTypo(s))
	}
	return l.wholePlaces(findLinePlaces(nv.norm, want, true, maxOccurrences), nv)
}

// wholePlaces turns spans of whole lines (of nv.norm, or of the doc's text
// when nv is nil) into places.
func (l *ladder) wholePlaces(spans []span, nv *normView) []fplace {
	out := make([]fplace, len(spans))
	for i, s := range spans {
		if nv != nil {
			s = span{nv.orig(s.start), nv.orig(s.end)}
		}
		out[i] = fplace{start: s.start, end: s.end}
	}
	return out
}

// lineKey is what a rung compares of a line: without trailing blanks, and
// from rung 2 up without indentation either.
func lineKey(s string, trimLeft bool) string {
	if trimLeft {
		return trimBlank(s)
	}
	return trimBlankRight(s)
}

// findLinePlaces returns the places of s (LF text) where len(want)
// consecutive lines have the keys want (see lineKey), in order, overlapping
// ones included, up to limit. Like occurrences, it looks up one distinctive
// line through the finder and checks the lines around each hit.
func findLinePlaces(s string, want []string, trimLeft bool, limit int) []span {
	a, needle, best := 0, "", -1
	for i, w := range want {
		c := trimBlank(w)
		if sc := anchorScore(c); sc > best {
			best, a, needle = sc, i, c
		}
	}
	var out []span
	if needle == "" {
		// Blank lines only: try every line.
		for ls := 0; ls < len(s) && len(out) < limit; {
			le := indexByteFrom(s, ls, '\n')
			if lineKey(s[ls:le], trimLeft) == want[a] {
				if sp, ok := matchAround(s, ls, a, want, trimLeft); ok {
					out = append(out, sp)
				}
			}
			ls = le + 1
		}
		return out
	}
	f := newFinder(needle)
	for p := f.index(s, 0); p >= 0; {
		ls := strings.LastIndexByte(s[:p], '\n') + 1
		le := indexByteFrom(s, p, '\n')
		if lineKey(s[ls:le], trimLeft) != want[a] {
			p = f.index(s, p+1)
			continue
		}
		if sp, ok := matchAround(s, ls, a, want, trimLeft); ok {
			out = append(out, sp)
			if len(out) >= limit {
				break
			}
		}
		p = f.index(s, le+1)
	}
	return out
}

// matchAround checks that the lines around line a, which starts at ls,
// have the keys want, and returns their span.
func matchAround(s string, ls, a int, want []string, trimLeft bool) (span, bool) {
	start := ls
	for range a {
		if start == 0 {
			return span{}, false
		}
		start = strings.LastIndexByte(s[:start-1], '\n') + 1
	}
	pos := start
	for i, w := range want {
		if pos >= len(s) {
			return span{}, false
		}
		e := indexByteFrom(s, pos, '\n')
		if i != a && lineKey(s[pos:e], trimLeft) != w {
			return span{}, false
		}
		pos = e + 1
	}
	return span{start, min(pos, len(s))}, true
}

// elisionPlaces is rung 5: SEARCH lines that are "..." (see isElision)
// split SEARCH into pieces, each matched as rung 4 would, in order; the
// lines between two pieces are any run of lines. The whole must have
// exactly one placement.
func (l *ladder) elisionPlaces(search []string) []fplace {
	parts := splitElided(search)
	if len(parts) < 2 {
		return nil
	}
	nv := l.normView()
	var found [][]span // per non-empty piece, in norm
	for _, part := range parts {
		if len(part) == 0 {
			continue
		}
		want := make([]string, len(part))
		for i, s := range part {
			want[i] = trimBlank(normTypo(s))
		}
		sp := findLinePlaces(nv.norm, want, true, 1<<16)
		if len(sp) == 0 {
			return nil
		}
		found = append(found, sp)
	}
	if len(found) == 0 {
		return nil
	}
	var out []fplace
	for _, combo := range placements(found, maxOccurrences) {
		p := fplace{start: nv.orig(combo[0].start), end: nv.orig(combo[len(combo)-1].end)}
		for _, s := range combo {
			p.pieces = append(p.pieces, span{nv.orig(s.start), nv.orig(s.end)})
		}
		out = append(out, p)
	}
	return out
}

// splitElided cuts lines at elision lines: k elision lines give k+1
// parts, some of which may be empty. No elision line gives one part.
func splitElided(lines []string) [][]string {
	parts := [][]string{nil}
	for _, s := range lines {
		if isElision(s) {
			parts = append(parts, nil)
			continue
		}
		parts[len(parts)-1] = append(parts[len(parts)-1], s)
	}
	return parts
}

// placements lists the ways (up to limit) to pick one place per piece so
// that the pieces come in order without overlapping. places[i] is sorted.
func placements(places [][]span, limit int) [][]span {
	// ways[i][j]: how many placements of pieces 0..i end with place j of
	// piece i, capped at limit.
	ways := make([][]int, len(places))
	for i, ps := range places {
		ways[i] = make([]int, len(ps))
		// The places of a piece all have the same height, so their ends
		// rise with their starts: one sweep sums the ways of the places
		// of the previous piece that end before each place starts.
		n, k := 0, 0
		for j, p := range ps {
			if i == 0 {
				ways[i][j] = 1
				continue
			}
			for ; k < len(places[i-1]) && places[i-1][k].end <= p.start; k++ {
				n = min(limit, n+ways[i-1][k])
			}
			ways[i][j] = n
		}
	}
	var out [][]span
	combo := make([]span, len(places))
	var walk func(i, j int)
	walk = func(i, j int) {
		combo[i] = places[i][j]
		if i == 0 {
			out = append(out, append([]span(nil), combo...))
			return
		}
		for k, q := range places[i-1] {
			if len(out) >= limit {
				return
			}
			if ways[i-1][k] > 0 && q.end <= places[i][j].start {
				walk(i-1, k)
			}
		}
	}
	last := len(places) - 1
	for j := range places[last] {
		if len(out) >= limit {
			break
		}
		if ways[last][j] > 0 {
			walk(last, j)
		}
	}
	// walk lists placements by their last piece; order them by the first.
	sortPlacements(out)
	return out
}

func sortPlacements(ps [][]span) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && lessPlacement(ps[j], ps[j-1]); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

func lessPlacement(a, b []span) bool {
	for i := range a {
		if a[i].start != b[i].start {
			return a[i].start < b[i].start
		}
	}
	return false
}

// partialPlaces is rung 6: SEARCH's first line matches the end of a file
// line and its last line the start of one (a one-line SEARCH may sit
// anywhere in a line), without cutting a word in two; the lines between
// match whole, as rung 4 would.
func (l *ladder) partialPlaces(search []string) []fplace {
	m := len(search)
	want := make([]string, m)
	for i, s := range search {
		want[i] = trimBlank(normTypo(s))
	}
	if m == 0 || want[0] == "" || want[m-1] == "" {
		return nil
	}
	nv := l.normView()
	s := nv.norm
	// The anchor: the best middle line (matched whole), else the first or
	// the last line.
	a, best := 0, -1
	for i := 1; i < m-1; i++ {
		if sc := anchorScore(want[i]); sc > best {
			a, best = i, sc
		}
	}
	if best < 0 && m > 1 && anchorScore(want[m-1]) > anchorScore(want[0]) {
		a = m - 1
	}
	var out []fplace
	f := newFinder(want[a])
	for p := f.index(s, 0); p >= 0 && len(out) < maxOccurrences; p = f.index(s, p+1) {
		ls := strings.LastIndexByte(s[:p], '\n') + 1
		le := indexByteFrom(s, p, '\n')
		switch {
		case m == 1:
			if cutsWord(s[ls:le], p-ls) || cutsWord(s[ls:le], p-ls+len(want[0])) {
				continue
			}
			out = append(out, l.partialPlace(nv, ls, p, p+len(want[0]), le))
			continue
		case a == 0:
			if !isBlank(s[p+len(want[0]) : le]) {
				continue
			}
		case a == m-1:
			if !isBlank(s[ls:p]) {
				continue
			}
		default:
			if trimBlank(s[ls:le]) != want[a] {
				continue
			}
		}
		if pl, ok := l.partialAround(nv, ls, a, want); ok {
			out = append(out, pl)
		}
	}
	return out
}

// partialAround checks a multi-line partial place whose line a starts at
// ls (in nv.norm).
func (l *ladder) partialAround(nv *normView, ls, a int, want []string) (fplace, bool) {
	s := nv.norm
	start := ls
	for range a {
		if start == 0 {
			return fplace{}, false
		}
		start = strings.LastIndexByte(s[:start-1], '\n') + 1
	}
	m := len(want)
	var cut0, cut1, lastStart, lastEnd int
	pos := start
	for i, w := range want {
		if pos >= len(s) {
			return fplace{}, false
		}
		e := indexByteFrom(s, pos, '\n')
		line := s[pos:e]
		switch i {
		case 0:
			body := trimBlankRight(line)
			if !strings.HasSuffix(body, w) || cutsWord(line, len(body)-len(w)) {
				return fplace{}, false
			}
			cut0 = pos + len(body) - len(w)
		case m - 1:
			lead, _ := splitBlank(line)
			if !strings.HasPrefix(line[len(lead):], w) || cutsWord(line, len(lead)+len(w)) {
				return fplace{}, false
			}
			cut1, lastStart, lastEnd = pos+len(lead)+len(w), pos, e
		default:
			if trimBlank(line) != w {
				return fplace{}, false
			}
		}
		pos = e + 1
	}
	firstEnd := indexByteFrom(s, start, '\n')
	pl := l.partialPlace(nv, start, cut0, cut0, firstEnd) // pre only
	post := l.partialPlace(nv, lastStart, cut1, cut1, lastEnd)
	pl.end, pl.post = post.end, post.post
	return pl, true
}

// partialPlace builds the place of the lines from ls (a line start of
// nv.norm) to le (the end of the last line, before its "\n"), cut at
// from and to: the file keeps what lies before from and after to.
func (l *ladder) partialPlace(nv *normView, ls, from, to, le int) fplace {
	lastStart := strings.LastIndexByte(nv.norm[:le], '\n') + 1
	start, end := nv.orig(ls), nv.orig(min(le+1, len(nv.norm)))
	ofrom, oto, oend := nv.origCol(ls, from), nv.origCol(lastStart, to), nv.origCol(lastStart, le)
	return fplace{start: start, end: end, pre: l.d.text()[start:ofrom], post: l.d.text()[oto:oend]}
}

// fuzzyMatch turns the one place a rung found into the block's match: the
// replacement (re-indented, pieces and cut-off text kept) and a warning.
func (v *validator) fuzzyMatch(l *ladder, r rung, p fplace) match {
	b, d := l.b, l.d
	search, replace := l.lines(r)
	m := match{start: p.start, end: p.end, matched: d.text()[p.start:p.end], rung: r.String()}
	line := d.lineOf(p.start) + 1

	// Re-indentation: the difference on the first non-blank line (for a
	// partial match, the first one that starts a file line).
	var delta indentDelta
	if r >= rungIndent {
		if ref, at, ok := indentRef(r, search, p, d.text()); ok {
			var err string
			delta, err = newIndentDelta(ref, d.text()[at:indexByteFrom(d.text(), at, '\n')])
			if err != "" {
				at := d.lineOf(at) + 1
				pr := v.fail(b, KindFuzzy, fmt.Sprintf("SEARCH matches line %d of %s once leading indentation is ignored, but %s", at, b.Path, err),
					"write SEARCH and REPLACE with the file's indentation (tabs or spaces as the file has them)")
				pr.Line = at
				return match{problem: pr}
			}
		}
	}

	var extras []string
	switch r {
	case rungNumbers:
		ex := numExample(l.style)
		if l.hintLo == 0 {
			ex = "| " // bare gutters only
		}
		extras = append(extras, fmt.Sprintf("prefixes like %q", ex))
		m.replace = joinBody(delta.apply(replace))
	case rungElision:
		repl, err := elidedReplace(search, replace, p, d.text(), delta)
		if err != "" {
			pr := v.fail(b, KindFuzzy, err, "write the same `...` lines in REPLACE as in SEARCH, where the kept text goes")
			pr.Line = line
			return match{problem: pr}
		}
		m.replace = repl
		kept := 0
		for i := 1; i < len(p.pieces); i++ {
			kept += strings.Count(d.text()[p.pieces[i-1].end:p.pieces[i].start], "\n")
		}
		extras = append(extras, fmt.Sprintf("kept the %s", plural(kept, "elided line")))
	case rungPartial:
		m.replace = partialReplace(search, replace, p, delta)
		extras = append(extras, fmt.Sprintf("kept %q before and %q after", p.pre, p.post))
	default:
		m.replace = joinBody(delta.apply(replace))
	}
	if s := delta.String(); s != "" {
		extras = append(extras, "re-indented REPLACE by "+s)
	}
	extra := strings.Join(extras, "; ")
	msg := fmt.Sprintf("block #%d matched only after %s", b.Number, rungDoes[r])
	if extra != "" {
		msg += " (" + extra + ")"
	}
	end := line + strings.Count(m.matched, "\n") - 1
	if end > line {
		msg += fmt.Sprintf(", at lines %d-%d", line, end)
	} else {
		msg += fmt.Sprintf(", at line %d", line)
	}
	w := v.fail(b, KindFuzzy, msg, "check the change; write SEARCH exactly as the file has it to match without "+v.opt.Switch.name())
	w.Severity, w.Line = SeverityWarning, line
	return m
}

func numExample(st numStyle) string {
	switch st {
	case numHash:
		return "12:a3f|"
	case numPipe:
		return "12 | "
	case numArrow:
		return "12→"
	case numTab:
		return "12\t"
	}
	return "12:"
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// indentRef finds the SEARCH line whose indentation, compared with the
// file line it matched (starting at at), gives the re-indentation: the
// first non-blank line; for elision, of the first piece; for a partial
// match, the first one after SEARCH's first line (which starts mid-line).
func indentRef(r rung, search []string, p fplace, text string) (ref string, at int, ok bool) {
	switch r {
	case rungElision:
		pi := 0
		for _, part := range splitElided(search) {
			if len(part) == 0 {
				continue
			}
			for i, s := range part {
				if !isBlank(s) {
					return s, lineAfter(text, p.pieces[pi].start, i), true
				}
			}
			pi++
		}
	case rungPartial:
		for i := 1; i < len(search); i++ {
			if !isBlank(search[i]) {
				return search[i], lineAfter(text, p.start, i), true
			}
		}
	default:
		for i, s := range search {
			if !isBlank(s) {
				return s, lineAfter(text, p.start, i), true
			}
		}
	}
	return "", 0, false
}

// elidedReplace builds the replacement of an elision match: REPLACE must
// hold as many elision lines as SEARCH; part i of REPLACE replaces piece i
// of SEARCH, and the text each elision line stands for is kept.
func elidedReplace(search, replace []string, p fplace, text string, delta indentDelta) (string, string) {
	sp, rp := splitElided(search), splitElided(replace)
	if len(sp) != len(rp) {
		return "", fmt.Sprintf("SEARCH has %s but REPLACE has %d; REPLACE must keep each one where the text it stands for goes",
			plural(len(sp)-1, "`...` elision line"), len(rp)-1)
	}
	// Attach the REPLACE parts of empty SEARCH parts (a leading, trailing
	// or doubled elision line) to a neighbouring piece.
	reps := make([][]string, 0, len(p.pieces))
	var pending []string
	for i, part := range sp {
		if len(part) == 0 {
			if len(reps) == 0 {
				pending = append(pending, rp[i]...)
			} else {
				reps[len(reps)-1] = append(reps[len(reps)-1], rp[i]...)
			}
			continue
		}
		reps = append(reps, append(pending, rp[i]...))
		pending = nil
	}
	var out strings.Builder
	for i, rep := range reps {
		out.WriteString(joinBody(delta.apply(rep)))
		if i+1 < len(p.pieces) {
			out.WriteString(text[p.pieces[i].end:p.pieces[i+1].start])
		}
	}
	return out.String(), ""
}

// partialReplace builds the replacement of a partial-line match: the text
// cut off before SEARCH's first line, REPLACE, and the text cut off after
// its last line.
func partialReplace(search, replace []string, p fplace, delta indentDelta) string {
	if len(replace) == 0 {
		if rest := p.pre + p.post; !isBlank(rest) {
			return rest + "\n"
		}
		return ""
	}
	lines := make([]string, len(replace))
	copy(lines, replace)
	// SEARCH's first line matched without its indentation: drop the same
	// indentation from REPLACE's first line, which follows the cut.
	if lead, _ := splitBlank(search[0]); lead != "" && strings.HasPrefix(lines[0], lead) {
		lines[0] = lines[0][len(lead):]
	}
	rest := delta.apply(lines[1:])
	copy(lines[1:], rest)
	lines[0] = p.pre + lines[0]
	lines[len(lines)-1] += p.post
	return joinBody(lines)
}

// indentDelta is how REPLACE is re-indented: add is put in front of each
// non-blank line, or remove is taken off.
type indentDelta struct{ add, remove string }

func leadOf(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[:i]
}

// newIndentDelta is the difference between SEARCH's reference line and the
// file line it matched. A difference that mixes tabs and spaces is refused
// (the error says why).
func newIndentDelta(searchLine, fileLine string) (indentDelta, string) {
	sl, fl := leadOf(searchLine), leadOf(fileLine)
	var dl indentDelta
	switch {
	case strings.HasPrefix(fl, sl):
		dl.add = fl[len(sl):]
	case strings.HasPrefix(sl, fl):
		dl.remove = sl[len(fl):]
	default:
		return indentDelta{}, fmt.Sprintf("the file indents that line with %s where SEARCH has %s: the difference mixes tabs and spaces", describeIndent(fl), describeIndent(sl))
	}
	if d := dl.add + dl.remove; strings.Contains(d, " ") && strings.Contains(d, "\t") {
		return indentDelta{}, fmt.Sprintf("the file indents that line with %s where SEARCH has %s: the difference mixes tabs and spaces", describeIndent(fl), describeIndent(sl))
	}
	return dl, ""
}

// describeIndent names an indentation: "4 spaces", "1 tab", "2 tabs and 1
// space", "no indentation".
func describeIndent(s string) string {
	if s == "" {
		return "no indentation"
	}
	tabs, spaces := strings.Count(s, "\t"), strings.Count(s, " ")
	switch {
	case tabs == 0:
		return plural(spaces, "space")
	case spaces == 0:
		return plural(tabs, "tab")
	}
	return fmt.Sprintf("%q", s)
}

// String is "+4 spaces", "-1 tab", or "" for no change.
func (dl indentDelta) String() string {
	switch {
	case dl.add != "":
		return "+" + describeIndent(dl.add)
	case dl.remove != "":
		return "-" + describeIndent(dl.remove)
	}
	return ""
}

// apply re-indents lines; blank lines stay as they are. A line indented
// less than what is removed loses all its indentation of that kind.
func (dl indentDelta) apply(lines []string) []string {
	if dl.add == "" && dl.remove == "" {
		return lines
	}
	out := make([]string, len(lines))
	for i, s := range lines {
		switch {
		case isBlank(s):
		case dl.add != "":
			s = dl.add + s
		case strings.HasPrefix(s, dl.remove):
			s = s[len(dl.remove):]
		default:
			c := dl.remove[0]
			j := 0
			for j < len(s) && j < len(dl.remove) && s[j] == c {
				j++
			}
			s = s[j:]
		}
		out[i] = s
	}
	return out
}

// fuzzyAmbiguous reports the places of a rung that found more than one.
func (v *validator) fuzzyAmbiguous(l *ladder, r rung, places []fplace) *Problem {
	b, d := l.b, l.d
	p := v.fail(b, KindAmbiguous, "", "")
	lines := make([]string, len(places))
	for i, pl := range places {
		line := d.lineOf(pl.start) + 1
		text := d.text()[pl.start:pl.end]
		c := Candidate{Line: line, EndLine: line + strings.Count(text, "\n") - 1, Context: firstNonBlankLine(text), Similarity: 1, Text: text}
		lines[i] = fmt.Sprint(line)
		if r == rungElision {
			// Placements of elided blocks often share their first piece:
			// show where each one ends too.
			lines[i] = fmt.Sprintf("%d-%d", c.Line, c.EndLine)
			last := pl.pieces[len(pl.pieces)-1]
			c.Context = fmt.Sprintf("%s … (line %d) %s", c.Context, d.lineOf(last.start)+1, firstNonBlankLine(d.text()[last.start:last.end]))
		}
		p.Candidates = append(p.Candidates, c)
	}
	more := ""
	if len(places) >= maxOccurrences {
		more = " or more"
	}
	p.Message = fmt.Sprintf("SEARCH block matches nowhere exactly, and %d%s places in %s after %s (fuzzy rung %q; lines %s); it must match exactly one",
		len(places), more, b.Path, rungDoes[r], r.String(), strings.Join(lines, ", "))
	p.Hint = "copy SEARCH exactly from the file, or add lines above or below to SEARCH (and the same to REPLACE) so that it matches only the place you mean"
	p.Line = p.Candidates[0].Line
	return p
}
