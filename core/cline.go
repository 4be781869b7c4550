package core

import (
	"fmt"
	"strconv"
	"strings"
)

// Dialect 5 (docs/ARCHITECTURE.md "Dialects"): Cline's and Roo Code's variants of the
// SEARCH/REPLACE block. They mix freely with dialects 1-4 in one patch:
//
//	------- SEARCH          Cline: 3 or more "-", then SEARCH
//	old text
//	=======
//	new text
//	+++++++ REPLACE         Cline: 3 or more "+", then REPLACE
//
//	<<<<<<< SEARCH          Roo Code: hints, then a "-------" line
//	:start_line:12
//	:end_line:14
//	-------
//	old text
//	=======
//	new text
//	>>>>>>> REPLACE
//
// Roo's line hints only choose among several places SEARCH matches (see
// placeHinted); the text still has to match.

// clineMarker recognizes "------- SEARCH" and "+++++++ REPLACE" (trimmed s).
func clineMarker(s string) marker {
	c := s[0]
	n := runOf(s, c)
	if n < 3 {
		return markNone
	}
	rest := strings.TrimSpace(s[n:])
	switch {
	case c == '-' && rest == "SEARCH":
		return markSearch
	case c == '+' && rest == "REPLACE":
		return markReplace
	}
	return markNone
}

// markerIn recognizes a delimiter line inside a block. In a block opened by
// Cline's "------- SEARCH", Cline's own reading holds: markers of 3 or more
// characters, the divider included ("===", "=========="), aider's "<<<"
// and ">>>" forms among them, and "SEARCH>" / "REPLACE>". Elsewhere the
// markers of dialects 1-4 (markerOf).
func markerIn(raw string, cline bool) marker {
	if m := markerOf(raw); m != markNone || !cline {
		return m
	}
	s := strings.TrimSpace(raw)
	if s == "" {
		return markNone
	}
	c := s[0]
	if runOf(s, c) < 3 {
		return markNone
	}
	rest := strings.TrimSpace(s[runOf(s, c):])
	switch {
	case c == '=' && rest == "":
		return markDivider
	case (c == '-' || c == '<') && (rest == "SEARCH" || rest == "SEARCH>"):
		return markSearch
	case (c == '+' || c == '>') && (rest == "REPLACE" || rest == "REPLACE>"):
		return markReplace
	}
	return markNone
}

// rooEscaped reports whether a body line, once its leading backslashes are
// gone, is one that Roo Code lets a model escape with a backslash: a line
// hint (":start_line:", ":end_line:"), Roo's "-------" separator, or a
// merge-conflict marker with any suffix ("<<<<<<< HEAD", "=======",
// "||||||| base", ">>>>>>> feature-branch"). A model that fixes a file
// holding conflict markers writes them escaped, as Roo's prompt teaches;
// such lines written with a backslash in a file are not a thing.
func rooEscaped(t string) bool {
	if strings.HasPrefix(t, ":start_line:") || strings.HasPrefix(t, ":end_line:") {
		return true
	}
	if t == "" {
		return false
	}
	switch c := t[0]; c {
	case '<', '=', '>', '|', '-':
		return runOf(t, c) >= 7
	}
	return false
}

// isLineHint reports whether a body line (trimmed) is one of Roo's line
// hints, which belong only right after the SEARCH marker.
func isLineHint(t string) bool {
	return strings.HasPrefix(t, ":start_line:") || strings.HasPrefix(t, ":end_line:")
}

// hintInReplace refuses a REPLACE part (lines [from, to)) that holds a
// line hint: models copy ":start_line:N" (and the "-------" after it) into
// REPLACE by mistake, and the line would be written into the file. Roo
// Code refuses such a block too. An escaped hint ("\:start_line:") is text.
func (p *parser) hintInReplace(b *Block, from, to int) bool {
	for j := from; j < to; j++ {
		if c, ok := leadByte(p.lines[j].text); ok && c != ':' {
			continue
		}
		t := strings.TrimSpace(p.lines[j].text)
		if !isLineHint(t) {
			continue
		}
		key := ":start_line:"
		if strings.HasPrefix(t, ":end_line:") {
			key = ":end_line:"
		}
		// The hints come in a run, with Roo's "-------" after it.
		end := j + 1
		for end < to && isLineHint(strings.TrimSpace(p.lines[end].text)) {
			end++
		}
		fix := "remove the line"
		if end > j+1 {
			fix = fmt.Sprintf("remove lines %d-%d", j+1, end)
		}
		if end < to {
			if next := strings.TrimSpace(p.lines[end].text); len(next) >= 3 && runOf(next, '-') == len(next) {
				what := "the hint and the %q line after it"
				if end > j+1 {
					what = "the hints and the %q line after them"
				}
				fix = fmt.Sprintf("remove lines %d-%d ("+what+")", j+1, end+1, next)
			}
		}
		p.problem(Problem{
			Kind: KindMalformed, Block: b.Number, Path: b.Path, Span: Span{p.lines[j].start, p.lines[j].end},
			Message: fmt.Sprintf("line %d: the REPLACE part holds the line hint %q, which would be written into the file; line hints belong only right after the SEARCH marker", j+1, t),
			Hint:    fix + `: REPLACE is the new text only; if the file is to hold the line, escape it as "\` + key + `"`,
		})
		return true
	}
	return false
}

// isClineOpen reports whether a SEARCH marker line is Cline's form.
func isClineOpen(raw string) bool {
	s := strings.TrimSpace(raw)
	return s != "" && s[0] == '-'
}

// xmlPath reads Cline's and Roo's "<path>src/app.ts</path>" header line.
func xmlPath(s string) (string, bool) {
	if !strings.HasPrefix(s, "<path>") || !strings.HasSuffix(s, "</path>") {
		return "", false
	}
	p := strings.TrimSpace(s[len("<path>") : len(s)-len("</path>")])
	p = strings.TrimPrefix(p, "./")
	if p == "" || strings.ContainsAny(p, "<>") {
		return "", false
	}
	return p, true
}

// rooHints reads Roo Code's lines between the SEARCH marker (line i-1) and
// the SEARCH text: ":start_line:N", ":end_line:N", and a "-------" line.
// It records the hints in b and returns the index of the first body line.
// Without hints, only a line of exactly seven dashes is taken as Roo's
// separator (Roo's own parser does the same), so that a SEARCH text
// starting with a Markdown rule or YAML's "---" stays text.
func (p *parser) rooHints(b *Block, i int) int {
	if i < len(p.lines) {
		// Nearly every block has no hints: its first line starts neither
		// ":" nor "-", so two trims a block are saved (BenchmarkW1).
		if c, ok := leadByte(p.lines[i].text); ok && c != ':' && c != '-' {
			return i
		}
	}
	j := i
	hinted := false
hints:
	for ; j < len(p.lines); j++ {
		t := strings.TrimSpace(p.lines[j].text)
		var key string
		switch {
		case strings.HasPrefix(t, ":start_line:"):
			key = ":start_line:"
		case strings.HasPrefix(t, ":end_line:"):
			key = ":end_line:"
		default:
			break hints
		}
		n, err := strconv.Atoi(strings.TrimSpace(t[len(key):]))
		if err != nil || n < 1 {
			p.problem(Problem{
				Kind: KindMalformed, Block: b.Number, Path: b.Path, Span: Span{p.lines[j].start, p.lines[j].end},
				Message: fmt.Sprintf("line %d: %q is not a line number hint", j+1, t),
				Hint:    "write the hint as " + key + "N with N the 1-based line number, or remove the line",
			})
			hinted = true
			continue
		}
		if key == ":start_line:" {
			b.HintLine = n
		} else {
			b.HintEndLine = n
		}
		hinted = true
	}
	if j < len(p.lines) {
		t := strings.TrimSpace(p.lines[j].text)
		if t == "-------" || hinted && len(t) >= 3 && runOf(t, '-') == len(t) {
			j++
			hinted = true
		}
	}
	if b.HintEndLine > 0 && b.HintLine == 0 {
		b.HintLine = b.HintEndLine
	}
	if b.HintEndLine < b.HintLine {
		b.HintEndLine = 0
	}
	if hinted && b.Dialect != DialectCline {
		b.Dialect = DialectRoo
	}
	return j
}
