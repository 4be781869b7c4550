package core

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzFuzzyMatch takes a file and a range of its lines, garbles the lines
// the way models do (trailing blanks, lost indentation, curly quotes,
// line-number prefixes, "..." for skipped lines, a cut first and last
// line, blank lines around, runs of spaces inside lines) and uses them as
// SEARCH with --fuzzy. Whenever the ladder applies the block, the bytes
// before and after the matched lines must not change (BOM, line endings
// and a missing final newline included); no rung but elision may match
// more lines than SEARCH has, and only blank-lines fewer (and
// inner-whitespace, which keeps what blank-lines forgives).
//
//	go test ./core -run '^$' -fuzz FuzzFuzzyMatch
func FuzzFuzzyMatch(f *testing.F) {
	f.Add("def f():\n    a = 1\n    b = 2\nreturn\n", 1, 2, uint8(1), 4, "a = 3\n")
	f.Add("x = 1  \ny = 2\n", 0, 2, uint8(0), 2, "z\n")
	f.Add("\uFEFFsay(\"hi\") - ok\r\nok\r\n", 0, 1, uint8(2), 0, "say(\"bye\")\n")
	f.Add("a\nb\nc\nd", 1, 2, uint8(3), 0, "B\nC\n")
	f.Add("def g():\n    x = 1\n    y = 2\n    z = 3\n    return x\n", 0, 5, uint8(4), 0, "def g():\n    ...\n    return y\n")
	f.Add("x = f(a)\ng(b); h()\n", 0, 2, uint8(5), 4, "f(b)\ng(a);\n")
	f.Add("value = compute(a, b) + 1\n", 0, 1, uint8(5), 8, "compute(b)\n")
	f.Add("\tif x {\n\t\ty()\n\t}\n", 0, 3, uint8(1), 1, "if x {\n\tz()\n}\n")
	f.Add("a\n  \nb\n", 0, 3, uint8(1), 2, "q\n\nr\n")
	f.Add("a\nb = 1\nc\n", 1, 1, uint8(6), 3, "\nb = 2\n")
	f.Add("function sum(a, b) {\n  return a + b\n}\n", 0, 2, uint8(7), 2, "x\n")
	f.Fuzz(func(t *testing.T, content string, from, n int, kind uint8, k int, replace string) {
		if strings.ContainsRune(content, 0) || strings.ContainsAny(replace, "\x00\r") || len(content) > 4096 {
			return
		}
		d := loadDoc([]byte(content))
		lines := splitBody(d.text())
		if from < 0 || n <= 0 || from+n > len(lines) || n > 50 {
			return
		}
		search := garble(lines[from:from+n], kind, k)
		if isBlank(joinBody(search)) {
			return
		}
		if replace != "" && !strings.HasSuffix(replace, "\n") {
			replace += "\n"
		}
		if isBlank(replace) {
			replace = ""
		}
		block := Block{Number: 1, Path: "f.txt", Op: OpModify, Search: joinBody(search), Replace: replace}
		plan := Validate(&Patch{Blocks: []Block{block}}, MapFS{"f.txt": content}, Options{Root: "/w", Fuzzy: true})
		if !plan.OK() || plan.Blocks[0].Rung == "exact" {
			return
		}
		res := plan.Blocks[0]
		if got := res.EndLine - res.Line + 1; res.Rung != "elision" && got > len(search) || res.Rung != "blank-lines" && res.Rung != "inner-whitespace" && got < len(search) {
			t.Fatalf("rung %s matched lines %d-%d for a SEARCH of %d lines", res.Rung, res.Line, res.EndLine, len(search))
		}
		var after string
		if len(plan.Files) == 1 {
			after = string(plan.Files[0].Bytes())
			if plan.Files[0].Action == ActionDelete {
				after = strings.Repeat(bom, strings.Count(content[:min(len(content), len(bom))], bom))
			}
		}
		// Raw line boundaries of the original content.
		raw := strings.SplitAfter(content, "\n")
		if raw[len(raw)-1] == "" {
			raw = raw[:len(raw)-1]
		}
		before := strings.Join(raw[:res.Line-1], "")
		rest := strings.Join(raw[res.EndLine:], "")
		if res.Line == 1 && strings.HasPrefix(content, bom) {
			before = bom
		}
		if res.EndLine == len(raw) && !strings.HasSuffix(content, "\n") {
			// The file keeps no final newline (docs/ARCHITECTURE.md "Matching"): when
			// the match was its last line, the line before it may now be
			// last and lose its newline.
			before = strings.TrimSuffix(strings.TrimSuffix(before, "\n"), "\r")
		}
		if !strings.HasPrefix(after, before) {
			t.Fatalf("rung %s, lines %d-%d: bytes before the match changed:\n%q\n->\n%q", res.Rung, res.Line, res.EndLine, content, after)
		}
		if !strings.HasSuffix(after, rest) || len(after) < len(before)+len(rest) {
			t.Fatalf("rung %s, lines %d-%d: bytes after the match changed:\n%q\n->\n%q", res.Rung, res.Line, res.EndLine, content, after)
		}
	})
}

// garble rewrites lines as a model might have copied them; kind picks how.
func garble(lines []string, kind uint8, k int) []string {
	out := make([]string, len(lines))
	copy(out, lines)
	k = max(0, min(k, 16))
	switch kind % 8 {
	case 0: // trailing blanks
		for i := range out {
			out[i] += strings.Repeat(" ", k%3+1)
		}
	case 1: // indentation shifted or lost
		for i, l := range out {
			if k%2 == 0 {
				out[i] = strings.Repeat(" ", k) + l
			} else {
				out[i] = strings.TrimLeft(l, " \t")
			}
		}
	case 2: // typography
		r := strings.NewReplacer(`"`, "\u201c", "'", "\u2019", "-", "\u2014", "...", "\u2026", " ", "\u00a0")
		for i, l := range out {
			out[i] = r.Replace(l)
		}
	case 3: // line-number prefixes
		for i, l := range out {
			out[i] = fmt.Sprintf("%4d | %s", k+i+1, l)
		}
	case 4: // elision of the middle lines
		if len(out) >= 3 {
			out = append([]string{out[0], "..."}, out[len(out)-1])
		}
	case 5: // cut the first and the last line
		first := out[0]
		out[0] = first[min(k, len(first)):]
		last := out[len(out)-1]
		if len(out) > 1 {
			out[len(out)-1] = last[:max(0, len(last)-k)]
		}
	case 6: // blank lines around
		out = append(append(make([]string, k%3), out...), make([]string, k/3%3)...)
	case 7: // runs of spaces inside lines
		for i, l := range out {
			lead, rest := splitBlank(l)
			out[i] = lead + strings.ReplaceAll(rest, " ", strings.Repeat(" ", k%3+2))
		}
	}
	return out
}
