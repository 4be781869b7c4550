package core

import "strings"

// scanRef is scan as it was before it was split into a per-line pass that
// may run on two cores and a serial pass over windows: the reference the
// tests hold scan to, window for window.
func (sc *closestScratch) scanRef(text string) (votes, tris closestTopRef) {
	m := len(sc.search)
	d := max(1, m/2) // windows closer than this belong to the same peak
	sc.vring = closestGrow(sc.vring, m)
	sc.tring = closestGrow(sc.tring, m)
	clear(sc.vring)
	clear(sc.tring)
	var tsum int32
	sc.off = sc.off[:0]
	j := 0
	for start := 0; start < len(text); j++ {
		sc.off = append(sc.off, start)
		end, next := len(text), len(text)
		if i := strings.IndexByte(text[start:], '\n'); i >= 0 {
			end, next = start+i, start+i+1
		}
		// Trim by hand: cheaper than closestSplit, which this loop does
		// not need.
		a, b := start, end
		for a < b && closestIsSpace(text[a]) {
			a++
		}
		for b > a && closestIsSpace(text[b-1]) {
			b--
		}
		core := text[a:b]
		start = next

		// Exact lines vote for window start j-i. The vote ring holds the
		// starts j-m+1..j; start j is new on this line.
		slot := j % m
		sc.vring[slot] = 0
		if core != "" {
			if sc.exact == nil || len(sc.search) <= 16 {
				for i := range sc.search {
					if sc.search[i].core == core {
						sc.vring[(j-i+m)%m] += float64(len(core))
					}
				}
			} else if i, ok := sc.exact[core]; ok {
				for ; i >= 0; i = sc.next[i] {
					sc.vring[(j-int(i)+m)%m] += float64(len(core))
				}
			}
		}
		// Trigram overlap summed over the last m lines.
		g := sc.gramScoreRef(core)
		tsum += g - sc.tring[slot]
		sc.tring[slot] = g

		// Window start j-m+1 has all its votes now.
		f := j - m + 1
		votes.offer(sc.vring[(f+m)%m], f, d)
		if f >= 0 {
			tris.offer(float64(tsum), f, d)
		}
	}
	sc.off = append(sc.off, len(text))
	n := j
	for f := n - m + 1; f < n; f++ {
		votes.offer(sc.vring[(f+m)%m], f, d)
	}
	if n < m {
		tris.offer(float64(tsum), 0, d)
	}
	return votes, tris
}

// closestTopRef is closestTop as it was before its floor.
type closestTopRef struct {
	n     int
	start [closestPerSignal]int
	score [closestPerSignal]float64
}

func (t *closestTopRef) offer(score float64, start, d int) {
	if score <= 0 {
		return
	}
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

func (t *closestTopRef) same(u closestTop) bool {
	return t.n == u.n && t.start == u.start && t.score == u.score
}

// gramScoreRef is gramScore a byte of text at a time, as it was.
func (sc *closestScratch) gramScoreRef(core string) int32 {
	if len(core) < 3 {
		return sc.gramScore(core)
	}
	var n int
	v := uint32(core[0])<<8 | uint32(core[1])
	for i := 2; i < len(core); i++ {
		v = (v<<8 | uint32(core[i])) & 0xFFFFFF
		h := closestGram(v)
		n += int(sc.grams[h])
	}
	return int32(min(n, sc.maxGr))
}
