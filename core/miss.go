package core

import (
	"fmt"
	"strings"
)

// explainMiss sharpens the problem of a block that matched nowhere, after
// notFound wrote it: a SEARCH that occurs in several places inside lines is
// ambiguous, not missing; and the Fix never suggests --fuzzy to a run that
// already climbed the ladder. places is how often SEARCH occurs inside
// lines (partialLine's count: 2 for two or more).
func (v *validator) explainMiss(b *Block, d *doc, p *Problem, places int) {
	if p.Kind == KindNotFound && places > 1 {
		if occ := partialOccurrences(d.text(), b.Search, maxOccurrences); len(occ) > 1 {
			v.partialAmbiguous(b, d, p, occ)
		}
	}
	if !v.opt.Fuzzy {
		if p.Kind == KindNotFound || p.Kind == KindPartialLine {
			v.blankEdgesHint(b, d, p)
		}
		return
	}
	switch p.Kind {
	case KindPartialLine:
		// The partial-line rung refused it: the text cuts a word in two,
		// or sits in more than one place once whole lines are compared.
		p.Hint = "copy the whole line into SEARCH (and REPLACE): with " + v.opt.Switch.name() + " a partial line is widened only when it starts and ends at word boundaries"
	case KindNotFound:
		p.Hint = "copy the exact lines from the file into SEARCH (whitespace and all): not even the fuzzy ladder found one place for it"
	case KindAmbiguous:
		p.Hint = "copy the whole lines you mean into SEARCH (and REPLACE), with lines above or below so that it matches only that place: " + v.opt.Switch.name() + " widens a partial line only when it starts and ends at word boundaries"
	}
}

// partialOccurrences returns the offsets where search (its lines joined,
// without the final line break) occurs in text inside lines, up to limit,
// or nil when it occurs at most once or one of its places is a near miss
// of whole lines (wholeOrCut: then the closest match, which shows the
// difference, tells more).
func partialOccurrences(text, search string, limit int) []int {
	s := strings.TrimSuffix(search, "\n")
	if strings.TrimSpace(s) == "" {
		return nil
	}
	f := newFinder(s)
	var out []int
	for i := f.index(text, 0); i >= 0 && len(out) < limit; i = f.index(text, i+1) {
		if wholeOrCut(text, i, len(s)) {
			return nil
		}
		out = append(out, i)
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// partialAmbiguous rewrites a not-found problem into an ambiguous one that
// lists every line SEARCH sits inside.
func (v *validator) partialAmbiguous(b *Block, d *doc, p *Problem, occ []int) {
	n := max(1, strings.Count(strings.TrimSuffix(b.Search, "\n"), "\n")+1)
	lines := make([]string, len(occ))
	p.Candidates = p.Candidates[:0]
	for i, at := range occ {
		line := d.lineOf(at) + 1
		lines[i] = fmt.Sprint(line)
		start := strings.LastIndexByte(d.text()[:at], '\n') + 1
		end := lineAfter(d.text(), start, n)
		text := d.text()[start:end]
		p.Candidates = append(p.Candidates, Candidate{
			Line: line, EndLine: line + n - 1, Context: firstNonBlankLine(text), Similarity: 1, Text: text,
		})
	}
	more := ""
	if len(occ) == maxOccurrences {
		more = " or more"
	}
	p.Kind = KindAmbiguous
	p.Message = fmt.Sprintf("SEARCH matches only part of lines, in %d%s places in %s (lines %s); SEARCH must hold whole lines and match exactly one place",
		len(occ), more, b.Path, strings.Join(lines, ", "))
	p.Hint = "copy the whole lines you mean into SEARCH (and REPLACE), with lines above or below so that it matches only that place"
	p.Line = p.Candidates[0].Line
}

// blankEdgesHint tells, in strict mode, that SEARCH would match once
// without its blank first and last lines (the --fuzzy rung blank-lines),
// and keeps such a block from being called a partial line.
func (v *validator) blankEdgesHint(b *Block, d *doc, p *Problem) {
	lines := splitBody(b.Search)
	trimmed, _ := trimBlankEdges(lines, nil)
	if len(trimmed) == len(lines) {
		return
	}
	occ := d.occurrences(joinBody(trimmed), 2)
	if len(occ) != 1 {
		return
	}
	line := d.lineOf(occ[0]) + 1
	// "\nb" occurs inside "a\nb": that is no partial line.
	p.Kind, p.Message, p.Line = KindNotFound, "SEARCH block not found in file content.", line
	p.Hint = fmt.Sprintf("SEARCH matches line %d once its blank first and last lines are dropped: remove them (and as many from REPLACE), or %s", line, v.opt.Switch.on())
}
