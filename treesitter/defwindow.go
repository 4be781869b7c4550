package treesitter

import "context"

// Definition windows for explanations. Naming the definitions around the
// places of an ambiguous block by parsing the whole file costs more than the
// rest of the dry run, for two names (make bench, W5). The chain of
// definitions around a place lies inside the top-level statement that holds
// it (a class and its methods, a function), and in a language whose
// top-level statements are items of a file (Python), that statement parsed
// alone is the same subtree. So each place's top-level statement is parsed
// alone, found by the language's statement lexer (stmtwindow.go) run from
// the start of the file: a line at column 0 that starts a logical line, is
// no clause (else, except) and follows no decorator. A window that does not
// parse cleanly, or a place no such window holds, sends the whole call back
// to the whole-file parse.

// topWindow is a run of top-level statements of a file, parsed alone.
type topWindow struct {
	start, end int // bytes of the file
	line       int // 0-based line of start
	tree       *Tree
}

// windowChains returns, for each byte range of content (the file at
// path), the chain of enclosing definitions, as Tree.EnclosingDefinitions
// on the whole file's tree gives it, from windows of top-level statements;
// ok is false when windows cannot answer and the whole file must be
// parsed. starts is lineStarts of content (plus a final newline).
func (c *Cache) windowChains(lang *Language, path string, content []byte, starts []int, ranges [][2]int) ([][]Definition, bool) {
	ls := newLines(lang.stmtLines, content, 0, len(content))
	var wins []topWindow
	out := make([][]Definition, len(ranges))
	for i, r := range ranges {
		s, e := trimRange(content, r[0], r[1])
		var w *topWindow
		for k := range wins {
			if wins[k].start <= s && e <= wins[k].end {
				w = &wins[k]
				break
			}
		}
		if w == nil {
			top, bottom, ok := topLevelSpan(ls, s, e)
			if !ok {
				return nil, false
			}
			st, err := lang.parse(context.Background(), c.timeout(), nil, content[top:bottom])
			if err != nil {
				return nil, false
			}
			t := newTree(lang, path, 0, content[top:bottom], 0, st)
			wins = append(wins, topWindow{start: top, end: bottom, line: lineOf(starts, top) - 1, tree: t})
			w = &wins[len(wins)-1]
		}
		ch, err := w.tree.EnclosingDefinitions(s-w.start, e-w.start)
		if err != nil || !errorsInBodies(w.tree, ch) {
			return nil, false
		}
		for k := range ch {
			d := &ch[k]
			d.StartByte += w.start
			d.EndByte += w.start
			d.StartLine += w.line
			d.EndLine += w.line
			d.SignatureLine += w.line
		}
		out[i] = ch
	}
	return out, true
}

// topLevelSpan returns the top-level statements that hold [s, e): from the
// nearest line at or above s that starts one (with the decorators above
// it) to the first line below e that starts another, or the end of the
// file.
func topLevelSpan(ls *lexedLines, s, e int) (int, int, bool) {
	first, _ := ls.at(s)
	if !ls.has(first) || ls.ls[first].start > s {
		first-- // s is inside that line
	}
	if first < 0 || !ls.has(first) {
		return 0, 0, false
	}
	if ls.ls[first].eof {
		return 0, 0, false
	}
	top := -1
	for j := first; j >= 0; j-- {
		if topStatement(ls, j) {
			top = j
			break
		}
	}
	if top < 0 {
		return 0, 0, false
	}
	for top > 0 {
		j := top - 1
		for j >= 0 && ls.ls[j].neutral && ls.ls[j].blank {
			j--
		}
		if j < 0 || !ls.ls[j].neutral || !ls.ls[j].deco || ls.ls[j].indent != 0 {
			break
		}
		top = j
	}
	last, _ := ls.at(e)
	for j := last; ls.has(j); j++ {
		l := ls.ls[j]
		if l.eof {
			if !l.neutral {
				return 0, 0, false
			}
			return ls.ls[top].start, l.start, true
		}
		if l.start >= e && topStatement(ls, j) {
			return ls.ls[top].start, l.start, true
		}
	}
	return 0, 0, false
}

// topStatement reports whether line j starts a top-level statement: at
// column 0, a logical line of its own, no clause, and not decorated by the
// statement above it.
func topStatement(ls *lexedLines, j int) bool {
	l := ls.ls[j]
	if !l.neutral || l.blank || l.indent != 0 || l.clause {
		return false
	}
	for k := j - 1; k >= 0; k-- {
		if p := ls.ls[k]; !p.neutral || !p.blank {
			return !(p.neutral && p.deco)
		}
	}
	return true
}

// errorsInBodies reports whether every syntax error of a window lies in
// the body of a definition of the chain, below its signature line. Error
// recovery can regroup the statements around an error, and then the
// whole file's parse may nest them otherwise than the window's (an
// unfinished "class A:" at the end swallowed by the class above); an
// error inside a body leaves the definitions around it as they are.
func errorsInBodies(t *Tree, chain []Definition) bool {
next:
	for _, n := range t.syntaxNodes() {
		for _, d := range chain {
			if t.line(n.start) > d.SignatureLine && n.end <= d.EndByte {
				continue next
			}
		}
		return false
	}
	return true
}
