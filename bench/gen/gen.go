// Package gen generates the deterministic workloads of the benchmarks:
// Python-like code with 4-space indentation, nested blocks, blank lines and
// repeated short lines, and SEARCH/REPLACE blocks over it, and the
// workloads W1-W6 built from them (workloads.go). The bench driver
// (bench/), core's in-process benchmarks and the language server's
// benchmark share them, so that all measure the same inputs.
package gen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Code generates n lines of Python-like code from seed.
func Code(n int, seed int64) []string {
	rnd := rand.New(rand.NewSource(seed))
	syl := []string{"load", "store", "item", "user", "cache", "index", "node", "tree", "path", "row", "key", "value", "count", "parse", "emit", "span", "block", "match", "file", "line"}
	ident := func() string {
		var b strings.Builder
		for i, k := 0, 2+rnd.Intn(2); i < k; i++ {
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteString(syl[rnd.Intn(len(syl))])
		}
		return b.String()
	}
	title := func() string {
		var b strings.Builder
		for _, w := range strings.Split(ident(), "_") {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
		return b.String()
	}
	lines := make([]string, 0, n+16)
	for len(lines) < n {
		lines = append(lines, fmt.Sprintf("class %s:", title()), "")
		for f, nf := 0, 2+rnd.Intn(4); f < nf; f++ {
			name, arg := ident(), ident()
			lines = append(lines,
				fmt.Sprintf("    def %s(self, %s, %s=None):", name, arg, ident()),
				fmt.Sprintf("        \"\"\"%s handles the %s of a %s.\"\"\"", name, ident(), ident()),
			)
			for i, k := 0, 2+rnd.Intn(4); i < k; i++ {
				v := ident()
				switch rnd.Intn(5) {
				case 0:
					lines = append(lines,
						fmt.Sprintf("        %s = self.%s(%s)", v, ident(), arg),
						fmt.Sprintf("        if %s is None:", v),
						fmt.Sprintf("            raise KeyError(f\"%s {%s}\")", name, arg),
					)
				case 1:
					lines = append(lines, fmt.Sprintf("        %s = %s * %d + len(self.%s)", v, arg, rnd.Intn(100), ident()))
				case 2:
					lines = append(lines,
						fmt.Sprintf("        for %s in self.%s:", v, ident()),
						fmt.Sprintf("            %s += %s.%s()", arg, v, ident()),
						"",
					)
				case 3:
					lines = append(lines,
						"        try:",
						fmt.Sprintf("            self.%s[%s] = %q", ident(), arg, ident()),
						"        except KeyError:",
						"            pass",
					)
				default:
					lines = append(lines, fmt.Sprintf("        self.%s[%s] = %q", ident(), arg, ident()))
				}
			}
			lines = append(lines, fmt.Sprintf("        return %s(%s)", ident(), arg), "")
		}
	}
	return lines[:n]
}

// JoinLines joins lines into a text with a final newline.
func JoinLines(lines []string) string { return strings.Join(lines, "\n") + "\n" }

// BlockAt picks a 5-line block starting at or after line from whose lines
// are all indented by at least 8 spaces and whose first line occurs once.
func BlockAt(lines []string, from int) int {
	count := map[string]int{}
	for _, l := range lines {
		count[l]++
	}
	for s := from; s+5 <= len(lines); s++ {
		ok := count[lines[s]] == 1
		for _, l := range lines[s : s+5] {
			ok = ok && strings.HasPrefix(l, "        ")
		}
		if ok {
			return s
		}
	}
	panic("gen: no block")
}

// PairAt picks two lines starting at or after line from, neither blank,
// the first of which occurs once in lines: a block that fits where
// BlockAt's five indented lines are too far apart.
func PairAt(lines []string, from int) int {
	count := map[string]int{}
	for _, l := range lines {
		count[l]++
	}
	for s := from; s+2 <= len(lines); s++ {
		if count[lines[s]] == 1 && strings.TrimSpace(lines[s]) != "" && strings.TrimSpace(lines[s+1]) != "" {
			return s
		}
	}
	panic("gen: no pair of lines")
}

// SRBlock is a SEARCH/REPLACE block of the fsrb dialect.
func SRBlock(path, search, replace string) string {
	return path + "\n<<<<<<< SEARCH\n" + search + "=======\n" + replace + ">>>>>>> REPLACE\n\n"
}

// Typo returns a copy of block with one letter of its middle line changed:
// a block that matches nowhere, one line off.
func Typo(block []string) []string {
	out := append([]string(nil), block...)
	mid := []byte(out[len(out)/2])
	i := len(mid) / 2
	for mid[i] < 'a' || mid[i] > 'z' {
		i++
	}
	mid[i] = 'a' + (mid[i]-'a'+1)%26
	out[len(out)/2] = string(mid)
	return out
}
