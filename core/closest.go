package core

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	udiff "github.com/aymanbagabas/go-udiff"
)

// Closest-match search: where in a file a SEARCH block that is not found was
// probably meant to go. It never applies an edit; it feeds error messages and
// quick fixes ("did you mean lines 40-46?") with a diff.
//
// The search runs in two steps so that big files stay cheap:
//
//  1. One pass over the file, no edit distance. Each line is trimmed and
//     (a) compared with the trimmed SEARCH lines: an exact hit of SEARCH line
//     i at file line j votes for the window starting at j-i, weighted by the
//     line's length; (b) scored by how many of its trigrams occur in SEARCH
//     (a 64 KiB table of hashed trigrams), summed over a sliding window of
//     SEARCH's height. The second signal finds blocks in which no line
//     survived intact (a one-line SEARCH with a typo, a typo on every line).
//     Each signal keeps its best few windows, with nearby windows of the
//     same peak suppressed. Scoring the lines is nearly all the work of the
//     search (hashing the trigrams most of it) and needs no other line, so
//     a big file's second half is scored on another core; the windows are
//     ranked afterwards in file order, which keeps the result, ties
//     included, that of one serial pass.
//  2. Only those few windows are scored with edit similarity; the best ones
//     are then tried again shifted by a line and one line shorter or longer,
//     so that a dropped or an added line still lines up.
//
// Similarity is line-aware: the SEARCH lines and the window's lines are
// aligned (a banded alignment, so a line may be missing on either side), a
// pair of lines costs the Levenshtein distance of their trimmed contents plus
// a small penalty when only their leading or trailing whitespace differs, and
// a line left unpaired costs its whole length. The total cost is divided by
// the larger side's length (each line counts its trimmed length plus one for
// the line break), so the measure is a length-weighted average over lines: a
// one-character typo in a five-line block scores about 0.99, a block whose
// indentation changed about 0.98, unrelated code well under 0.5.

// minSimilarity is the least similarity a window needs to be reported.
const minSimilarity = 0.5

const (
	// closestPerSignal is how many windows each first-step signal keeps.
	closestPerSignal = 4
	// closestRefine is how many of the best windows are tried again shifted
	// and resized by a line.
	closestRefine = 2
	// closestWSPenalty is the cost of a line whose trimmed content is equal
	// but whose indentation or trailing whitespace differs.
	closestWSPenalty = 0.25
	// closestMaxCells bounds the work of one quadratic edit distance.
	closestMaxCells = 1 << 20
	// closestGramBits sizes the trigram set (1<<closestGramBits entries).
	closestGramBits = 16
	// closestSplitMin is the least file size scored on two cores. A fresh
	// process must make the second thread first: on a small file splitting
	// made fsrb --dry-run slower, not faster (make bench, W4 5k); on a big
	// one it pays (W4 50k).
	closestSplitMin = 512 << 10
)

// Closest returns the window of lines of text (LF, whole file) most similar to
// search (LF, whole lines), or ok=false when nothing is at least minSimilarity similar.
//
// The window has as many lines as search, or one line fewer or more when a
// line was dropped or added. When several windows are equally similar the
// earliest one wins. Candidate.Diff is a unified diff from SEARCH to the
// window's text.
func Closest(text string, search string) (c Candidate, ok bool) {
	c, ok = closestAt(text, search, -1)
	if ok {
		c.Diff = udiff.Unified("SEARCH", fmt.Sprintf("file lines %d-%d", c.Line, c.EndLine), withEOL(search), c.Text)
	}
	return c, ok
}

// closestAt is Closest without the diff, with the file's second half
// scored from byte split on (a line start), or where scan chooses when
// split is negative.
func closestAt(text, search string, split int) (c Candidate, ok bool) {
	if text == "" || search == "" {
		return Candidate{}, false
	}
	sc := closestPool.Get().(*closestScratch)
	defer sc.release()

	if !sc.setSearch(search) {
		return Candidate{}, false
	}
	if split < 0 {
		sc.scan(text)
	} else {
		sc.scanAt(text, split)
	}
	n := sc.n
	if n == 0 {
		return Candidate{}, false
	}
	best := sc.best(text)
	if best.sim < minSimilarity {
		return Candidate{}, false
	}

	s, k := best.start, best.k
	window := text[sc.start(s):sc.start(s+k)]
	if !strings.HasSuffix(window, "\n") {
		window += "\n"
	}
	c = Candidate{
		Line:       s + 1,
		EndLine:    s + k,
		Context:    closestContext(window),
		Similarity: best.sim,
		Text:       window,
	}
	return c, true
}

// closestLine is a line cut into its indentation, trimmed content and
// trailing whitespace. w is its weight: the content's length plus one for
// the line break.
type closestLine struct {
	lead, core, trail string
	w                 float64
}

func closestIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

func closestSplit(s string) closestLine {
	i, j := 0, len(s)
	for i < j && closestIsSpace(s[i]) {
		i++
	}
	for j > i && closestIsSpace(s[j-1]) {
		j--
	}
	return closestLine{lead: s[:i], core: s[i:j], trail: s[j:], w: float64(j - i + 1)}
}

// closestContext returns the first non-blank line of s, trimmed.
func closestContext(s string) string {
	for s != "" {
		l := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			l, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// closestGram hashes a trigram (or a whole trimmed line shorter than three
// bytes, tagged with its length) to an entry of the trigram set.
func closestGram(v uint32) uint32 { return (v * 0x9E3779B1) >> (32 - closestGramBits) }

// closestTop keeps the best few windows of one signal, at most one per peak:
// windows less than d lines apart count as the same peak. Windows are
// offered in file order and a later one must be strictly better to replace
// an earlier one, so ties keep the earliest window.
type closestTop struct {
	n     int
	start [closestPerSignal]int
	score [closestPerSignal]float64
	// floor is 0 until the top is full, then its least score: a window
	// that does not beat every kept one changes nothing, and nearly every
	// window of a big file is such a window.
	floor float64
}

// offer is small enough to be inlined: the test is all that most windows
// cost.
func (t *closestTop) offer(score float64, start, d int) {
	if score > t.floor {
		t.put(score, start, d)
	}
}

func (t *closestTop) put(score float64, start, d int) {
	t.insert(score, start, d)
	if t.n == closestPerSignal {
		t.floor = min(t.score[0], t.score[1], t.score[2], t.score[3])
	}
}

func (t *closestTop) insert(score float64, start, d int) {
	for i := 0; i < t.n; i++ {
		if dist := start - t.start[i]; dist < d && dist > -d {
			if score > t.score[i] {
				t.start[i], t.score[i] = start, score
			}
			return
		}
	}
	if t.n < closestPerSignal {
		t.start[t.n], t.score[t.n] = start, score
		t.n++
		return
	}
	worst := 0
	for i := 1; i < t.n; i++ {
		// On equal scores drop the later window.
		if t.score[i] < t.score[worst] || t.score[i] == t.score[worst] && t.start[i] > t.start[worst] {
			worst = i
		}
	}
	if score > t.score[worst] {
		t.start[worst], t.score[worst] = start, score
	}
}

// closestWindow is a scored window: lines start..start+k-1 (0-based).
type closestWindow struct {
	start, k int
	sim      float64
}

// closestScratch holds the buffers of one Closest call; they are pooled so
// that repeated calls (one per failing block) allocate little.
type closestScratch struct {
	search []closestLine // the SEARCH lines
	ssum   float64       // their total weight
	// grams[h] is 1 when a SEARCH trigram hashes to h: a byte per hash
	// rather than a bit reads in two instructions instead of four, and
	// gset lists the bytes set so that the next SEARCH clears only those.
	grams [1 << closestGramBits]uint8
	gset  []uint16
	maxGr int // the most trigrams on one SEARCH line: caps a file line's score
	// lens has bit len%64 set for the length of each SEARCH line's
	// content: most file lines fail this test and are compared with none.
	lens  uint64
	exact map[string]int32
	next  []int32 // next SEARCH line with the same content, -1 at the end

	off    []int // line starts of the first half; see start
	n      int   // lines in the file
	size   int   // bytes in the file
	score  []closestScore
	second closestLines
	wg     sync.WaitGroup // scores second; a field, so as not to allocate
	votes  closestTop
	tris   closestTop
	vring  []float64
	tring  []int32

	win       []closestLine
	prev, cur []float64
	lev       closestLev
}

var closestPool = sync.Pool{New: func() any { return new(closestScratch) }}

func (sc *closestScratch) release() {
	clear(sc.search) // drop references to the caller's strings
	clear(sc.win)
	clear(sc.exact)
	sc.search, sc.win, sc.off = sc.search[:0], sc.win[:0], sc.off[:0]
	sc.second.reset()
	closestPool.Put(sc)
}

// setSearch splits search into lines and builds the trigram set. It reports
// false when search holds nothing but blank lines.
func (sc *closestScratch) setSearch(search string) bool {
	sc.search, sc.ssum = sc.search[:0], 0
	body := strings.TrimSuffix(search, "\n")
	for {
		i := strings.IndexByte(body, '\n')
		if i < 0 {
			sc.search = append(sc.search, closestSplit(body))
			break
		}
		sc.search = append(sc.search, closestSplit(body[:i]))
		body = body[i+1:]
	}
	for _, h := range sc.gset {
		sc.grams[h] = 0
	}
	sc.gset = sc.gset[:0]
	sc.maxGr, sc.lens = 1, 0
	content := false
	for _, l := range sc.search {
		sc.ssum += l.w
		if l.core == "" {
			continue
		}
		sc.lens |= 1 << (len(l.core) & 63)
		content = true
		if g := sc.addGrams(l.core); g > sc.maxGr {
			sc.maxGr = g
		}
	}
	sc.next = sc.next[:0]
	for range sc.search {
		sc.next = append(sc.next, -1)
	}
	if len(sc.search) > 16 {
		// Long SEARCH: look lines up in a map instead of comparing each.
		if sc.exact == nil {
			sc.exact = make(map[string]int32, len(sc.search))
		}
		for i := len(sc.search) - 1; i >= 0; i-- {
			if core := sc.search[i].core; core != "" {
				if j, ok := sc.exact[core]; ok {
					sc.next[i] = j
				}
				sc.exact[core] = int32(i)
			}
		}
	} else {
		for i := len(sc.search) - 1; i >= 0; i-- {
			for j := i + 1; j < len(sc.search) && sc.search[i].core != ""; j++ {
				if sc.search[j].core == sc.search[i].core {
					sc.next[i] = int32(j)
					break
				}
			}
		}
	}
	return content
}

func (sc *closestScratch) addGrams(core string) int {
	if len(core) < 3 {
		v := uint32(len(core)) << 24
		for i := 0; i < len(core); i++ {
			v |= uint32(core[i]) << (8 * i)
		}
		sc.addGram(closestGram(v))
		return 1
	}
	v := uint32(core[0])<<8 | uint32(core[1])
	for i := 2; i < len(core); i++ {
		v = (v<<8 | uint32(core[i])) & 0xFFFFFF
		sc.addGram(closestGram(v))
	}
	return len(core) - 2
}

func (sc *closestScratch) addGram(h uint32) {
	if sc.grams[h] == 0 {
		sc.grams[h] = 1
		sc.gset = append(sc.gset, uint16(h))
	}
}

// gramScore counts the trigrams of core that occur in SEARCH, capped.
func (sc *closestScratch) gramScore(core string) int32 {
	if len(core) < 3 {
		if core == "" {
			return 0
		}
		v := uint32(len(core)) << 24
		for i := 0; i < len(core); i++ {
			v |= uint32(core[i]) << (8 * i)
		}
		h := closestGram(v)
		return int32(sc.grams[h])
	}
	grams := &sc.grams
	var n uint64
	i := 0
	// Eight bytes read at once hold six trigrams: half the instructions of
	// a byte at a time, and no chain from one trigram to the next.
	for ; i+8 <= len(core); i += 6 {
		b := core[i : i+8]
		x := uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
			uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
		h0 := closestGram(uint32(x>>40) & 0xFFFFFF)
		h1 := closestGram(uint32(x>>32) & 0xFFFFFF)
		h2 := closestGram(uint32(x>>24) & 0xFFFFFF)
		h3 := closestGram(uint32(x>>16) & 0xFFFFFF)
		h4 := closestGram(uint32(x>>8) & 0xFFFFFF)
		h5 := closestGram(uint32(x) & 0xFFFFFF)
		n += uint64(grams[h0]) + uint64(grams[h1]) + uint64(grams[h2]) +
			uint64(grams[h3]) + uint64(grams[h4]) + uint64(grams[h5])
	}
	v := uint32(core[i])<<8 | uint32(core[i+1])
	for i += 2; i < len(core); i++ {
		v = (v<<8 | uint32(core[i])) & 0xFFFFFF
		h := closestGram(v)
		n += uint64(grams[h])
	}
	return int32(min(n, uint64(sc.maxGr)))
}

// scan is the first step: it records line starts and keeps the best windows
// by exact-line votes and by trigram overlap. Scoring the lines is nearly all
// the work and each line is scored alone, so a big file's second half is
// scored on another core; the windows are then ranked in one serial pass
// over the lines' scores, so the result is the serial scan's, ties and
// windows across the split included.
func (sc *closestScratch) scan(text string) {
	split := len(text)
	if len(text) >= closestSplitMin && runtime.GOMAXPROCS(0) > 1 {
		if i := strings.IndexByte(text[len(text)/2:], '\n'); i >= 0 {
			split = len(text)/2 + i + 1
		}
	}
	sc.scanAt(text, split)
}

// scanAt is scan with the second half starting at byte split, a line start
// (len(text) for no second half).
func (sc *closestScratch) scanAt(text string, split int) {
	second := &sc.second
	second.reset()
	if split < len(text) {
		sc.wg.Go(func() { sc.lines(text, split, len(text), second) })
	}
	first := &closestLines{off: sc.off[:0], score: sc.score[:0]}
	sc.lines(text, 0, split, first)
	sc.off, sc.score = first.off, first.score
	sc.size = len(text)

	m := len(sc.search)
	d := max(1, m/2) // windows closer than this belong to the same peak
	sc.votes, sc.tris = closestTop{}, closestTop{}
	sc.vring = closestGrow(sc.vring, m)
	sc.tring = closestGrow(sc.tring, m)
	clear(sc.vring)
	clear(sc.tring)
	var r closestRun
	sc.windows(sc.score, &r, d)
	sc.wg.Wait()
	sc.windows(second.score, &r, d)
	n := r.j
	sc.n = n
	for f := n - m + 1; f < n; f++ {
		sc.votes.offer(sc.vring[(f+m)%m], f, d)
	}
	if n < m {
		sc.tris.offer(float64(r.tsum), 0, d)
	}
}

// closestLines holds what the first step needs of each line of a run of
// lines: where it starts and its score.
type closestLines struct {
	off   []int
	score []closestScore
}

// closestScore is a line's trigram score and the first SEARCH line equal to
// it once trimmed (-1 for none; sc.next chains the others).
type closestScore struct{ g, hit int32 }

func (ls *closestLines) reset() {
	ls.off, ls.score = ls.off[:0], ls.score[:0]
}

// lines scores the lines that start in text[from:to]; to is a line start or
// len(text). It only reads sc, so that two runs may score at once.
func (sc *closestScratch) lines(text string, from, to int, out *closestLines) {
	search := sc.search
	short := len(search) <= 16
	// Sized at once: grown by appending, these slices left a big file's
	// process twice their size in garbage and page faults.
	nl := strings.Count(text[from:to], "\n") + 1
	off, score := slices.Grow(out.off, nl), slices.Grow(out.score, nl)
	for start := from; start < to; {
		off = append(off, start)
		end, next := to, to
		if i := strings.IndexByte(text[start:to], '\n'); i >= 0 {
			end, next = start+i, start+i+1
		}
		// Trim by hand: cheaper than closestSplit, which this loop does
		// not need.
		a, b := start, end
		// Indentation of spaces goes eight at a time: a byte at a time
		// it cost Python code a third of this loop.
		for a+8 <= b && load64(text, a) == 0x2020202020202020 {
			a += 8
		}
		for a < b && closestIsSpace(text[a]) {
			a++
		}
		for b > a && closestIsSpace(text[b-1]) {
			b--
		}
		core := text[a:b]
		start = next

		h := int32(-1)
		if core != "" && sc.lens>>(len(core)&63)&1 != 0 {
			if short {
				for i := range search {
					if search[i].core == core {
						h = int32(i)
						break
					}
				}
			} else if i, ok := sc.exact[core]; ok {
				h = i
			}
		}
		score = append(score, closestScore{sc.gramScore(core), h})
	}
	out.off, out.score = off, score
}

// closestRun carries the serial pass over windows from one run of lines to
// the next.
type closestRun struct {
	j, slot int // lines seen; j % len(SEARCH)
	tsum    int32
}

// windows feeds the scores of a run of lines to the sliding windows and
// offers each window to the two signals once all its lines are in.
func (sc *closestScratch) windows(score []closestScore, r *closestRun, d int) {
	m := len(sc.search)
	search, next := sc.search, sc.next
	vring, tring := sc.vring[:m], sc.tring[:m]
	j, slot, tsum := r.j, r.slot, r.tsum
	for _, ls := range score {
		// Exact lines vote for window start j-i. The vote ring holds the
		// starts j-m+1..j at index start%m; start j is new on this line.
		vring[slot] = 0
		for i := ls.hit; i >= 0; i = next[i] {
			s := slot - int(i)
			if s < 0 {
				s += m
			}
			vring[s] += float64(len(search[i].core))
		}
		// Trigram overlap summed over the last m lines.
		tsum += ls.g - tring[slot]
		tring[slot] = ls.g
		if slot++; slot == m {
			slot = 0
		}
		// Window start j-m+1 has all its votes now; it sits at the
		// slot of start j+1.
		f := j - m + 1
		sc.votes.offer(vring[slot], f, d)
		if f >= 0 {
			sc.tris.offer(float64(tsum), f, d)
		}
		j++
	}
	r.j, r.slot, r.tsum = j, slot, tsum
}

func closestGrow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// best is the second step: score the first step's windows, then try the best
// of them again shifted and resized by a line.
func (sc *closestScratch) best(text string) closestWindow {
	n, m := sc.n, len(sc.search)
	k0 := min(m, n)
	var firsts [2 * closestPerSignal]closestWindow
	nf := 0
	add := func(start int) {
		start = max(0, min(start, n-k0))
		for _, w := range firsts[:nf] {
			if w.start == start {
				return
			}
		}
		firsts[nf] = closestWindow{start: start, k: k0, sim: sc.similarity(text, start, k0)}
		nf++
	}
	for i := 0; i < sc.votes.n; i++ {
		add(sc.votes.start[i])
	}
	for i := 0; i < sc.tris.n; i++ {
		add(sc.tris.start[i])
	}
	if nf == 0 {
		add(0)
	}
	// Sort the few windows: most similar first, earliest first on ties.
	ws := firsts[:nf]
	for i := 1; i < len(ws); i++ {
		for j := i; j > 0 && closestBetter(ws[j], ws[j-1], m); j-- {
			ws[j], ws[j-1] = ws[j-1], ws[j]
		}
	}
	best := ws[0]
	for _, w := range ws[:min(len(ws), closestRefine)] {
		for ds := -1; ds <= 1; ds++ {
			for _, k := range [...]int{m, m - 1, m + 1} {
				k = max(1, min(k, n))
				s := w.start + ds
				if s < 0 || s+k > n || (ds == 0 && k == w.k) {
					continue
				}
				c := closestWindow{start: s, k: k, sim: sc.similarity(text, s, k)}
				if closestBetter(c, best, m) {
					best = c
				}
			}
		}
	}
	return best
}

// closestBetter orders windows: more similar, then earlier, then the one
// with SEARCH's height, then the shorter.
func closestBetter(a, b closestWindow, m int) bool {
	if a.sim != b.sim {
		return a.sim > b.sim
	}
	if a.start != b.start {
		return a.start < b.start
	}
	if (a.k == m) != (b.k == m) {
		return a.k == m
	}
	return a.k < b.k
}

// start returns where file line j starts; start(n) is len(text). The line
// starts stay in two slices, one per half, rather than being copied into
// one.
func (sc *closestScratch) start(j int) int {
	if j < len(sc.off) {
		return sc.off[j]
	}
	if j -= len(sc.off); j < len(sc.second.off) {
		return sc.second.off[j]
	}
	return sc.size
}

// line returns file line j without its line break.
func (sc *closestScratch) line(text string, j int) string {
	l := text[sc.start(j):sc.start(j+1)]
	if l != "" && l[len(l)-1] == '\n' {
		l = l[:len(l)-1]
	}
	return l
}

// similarity scores SEARCH against file lines start..start+k-1 with a
// banded alignment of lines (see the comment at the top of the file).
func (sc *closestScratch) similarity(text string, start, k int) float64 {
	S := sc.search
	m := len(S)
	sc.win = sc.win[:0]
	var wsum float64
	for j := 0; j < k; j++ {
		l := closestSplit(sc.line(text, start+j))
		sc.win = append(sc.win, l)
		wsum += l.w
	}
	W := sc.win
	band := max(m-k, k-m) + 1
	sc.prev = closestGrow(sc.prev, k+1)
	sc.cur = closestGrow(sc.cur, k+1)
	prev, cur := sc.prev, sc.cur
	const inf = 1e300

	// Row 0: window lines left unpaired.
	prev[0] = 0
	for j := 1; j <= k; j++ {
		prev[j] = inf
		if j <= band {
			prev[j] = prev[j-1] + W[j-1].w
		}
	}
	for i := 1; i <= m; i++ {
		lo, hi := max(0, i-band), min(k, i+band)
		if lo > 0 {
			cur[lo-1] = inf
		}
		if hi < k {
			cur[hi+1] = inf
		}
		for j := lo; j <= hi; j++ {
			v := prev[j] + S[i-1].w // SEARCH line i unpaired
			if j > 0 {
				v = min(v,
					prev[j-1]+sc.lev.cost(S[i-1], W[j-1]),
					cur[j-1]+W[j-1].w) // window line j unpaired
			}
			cur[j] = v
		}
		prev, cur = cur, prev
	}
	return 1 - min(1, prev[k]/max(sc.ssum, wsum))
}

// closestLev computes edit distances without allocating for lines of up to
// 64 bytes. There is no edit distance in the standard library or in our
// dependencies, and the bit-parallel algorithm makes scoring a pair of lines
// cost about as much as reading them, so it is written here.
type closestLev struct {
	peq [256]uint64
	row []int
}

// cost is the price of pairing two lines in an alignment.
func (lv *closestLev) cost(a, b closestLine) float64 {
	var d float64
	if a.core != b.core {
		d = float64(lv.distance(a.core, b.core))
	}
	if a.lead != b.lead || a.trail != b.trail {
		d += closestWSPenalty
	}
	return d
}

// distance is the Levenshtein distance of a and b, counted in bytes (a
// changed multi-byte character costs a little more than one edit, which is
// fine for ranking near misses).
func (lv *closestLev) distance(a, b string) int {
	for a != "" && b != "" && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for a != "" && b != "" && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	switch {
	case a == "":
		return len(b)
	case len(a) <= 64:
		return lv.myers(a, b)
	case len(a)*len(b) > closestMaxCells:
		// Two long, different stretches (minified code): too costly to
		// measure exactly, and far apart in any case. The upper bound
		// keeps them from looking similar.
		return len(b)
	}
	return lv.dp(a, b)
}

// myers is Myers' bit-parallel edit distance in Hyyrö's formulation, for a
// pattern a of at most 64 bytes.
func (lv *closestLev) myers(a, b string) int {
	for i := 0; i < len(a); i++ {
		lv.peq[a[i]] |= 1 << i
	}
	last := uint64(1) << (len(a) - 1)
	pv, mv := ^uint64(0), uint64(0)
	score := len(a)
	for i := 0; i < len(b); i++ {
		eq := lv.peq[b[i]]
		xv := eq | mv
		xh := ((eq & pv) + pv) ^ pv | eq
		ph := mv | ^(xh | pv)
		mh := pv & xh
		if ph&last != 0 {
			score++
		} else if mh&last != 0 {
			score--
		}
		ph = ph<<1 | 1
		mh <<= 1
		pv = mh | ^(xv | ph)
		mv = ph & xv
	}
	for i := 0; i < len(a); i++ {
		lv.peq[a[i]] = 0
	}
	return score
}

// dp is the textbook two-row edit distance, for long lines.
func (lv *closestLev) dp(a, b string) int {
	lv.row = closestGrow(lv.row, len(a)+1)
	row := lv.row
	for i := range row {
		row[i] = i
	}
	for j := 1; j <= len(b); j++ {
		diag := row[0]
		row[0] = j
		for i := 1; i <= len(a); i++ {
			up := row[i]
			v := diag
			if a[i-1] != b[j-1] {
				v = 1 + min(diag, up, row[i-1])
			}
			row[i] = v
			diag = up
		}
	}
	return row[len(a)]
}
