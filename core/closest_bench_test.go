package core

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
)

// closestCodeFile generates n lines of deterministic Go-like code: functions
// with varied identifiers, error checks, arithmetic and blank lines, so that
// short lines ("}", "return nil, err") repeat as they do in real code while
// most longer lines are distinct.
func closestCodeFile(n int, seed int64) string {
	rnd := rand.New(rand.NewSource(seed))
	syl := []string{"load", "store", "item", "user", "cache", "index", "node", "tree", "path", "row", "key", "value", "count", "parse", "emit", "span", "block", "match", "file", "line"}
	title := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	ident := func() string {
		var b strings.Builder
		for i, k := 0, 2+rnd.Intn(2); i < k; i++ {
			s := syl[rnd.Intn(len(syl))]
			if i > 0 {
				s = title(s)
			}
			b.WriteString(s)
		}
		return b.String()
	}
	var lines []string
	for len(lines) < n {
		name, recv, arg := ident(), ident(), ident()
		lines = append(lines,
			fmt.Sprintf("// %s handles the %s of a %s.", name, ident(), recv),
			fmt.Sprintf("func (s *%s) %s(ctx context.Context, %s int) (*%s, error) {", title(recv), name, arg, title(ident())),
		)
		for i, k := 0, 2+rnd.Intn(4); i < k; i++ {
			v := ident()
			switch rnd.Intn(4) {
			case 0:
				lines = append(lines,
					fmt.Sprintf("\t%s, err := s.%s(ctx, %s)", v, ident(), arg),
					"\tif err != nil {",
					fmt.Sprintf("\t\treturn nil, fmt.Errorf(\"%s %%d: %%w\", %s, err)", name, arg),
					"\t}",
				)
			case 1:
				lines = append(lines, fmt.Sprintf("\t%s := %s*%d + len(s.%s)", v, arg, rnd.Intn(100), ident()))
			case 2:
				lines = append(lines,
					fmt.Sprintf("\tfor _, %s := range s.%s {", v, ident()),
					fmt.Sprintf("\t\t%s += %s.%s()", arg, v, title(ident())),
					"\t}",
				)
			default:
				lines = append(lines, fmt.Sprintf("\ts.%s[%s] = %q", ident(), arg, ident()))
			}
		}
		lines = append(lines, fmt.Sprintf("\treturn &%s{%s: %s}, nil", title(ident()), ident(), arg), "}", "")
	}
	return strings.Join(lines[:n], "\n") + "\n"
}

// closestBenchInput returns a generated file of n lines, a 5-line block from
// its middle with a one-character typo in the block's middle line, and the
// block's 1-based first line.
func closestBenchInput(n int) (file, search string, line int) {
	file = closestCodeFile(n, 1)
	lines := strings.SplitAfter(file, "\n")
	start := n / 2
	for len(strings.TrimSpace(lines[start+2])) < 12 {
		start++
	}
	block := gen.Typo(lines[start : start+5])
	return file, strings.Join(block, ""), start + 1
}

func benchmarkClosest(b *testing.B, n int) {
	file, search, line := closestBenchInput(n)
	if c, ok := Closest(file, search); !ok || c.Line != line {
		b.Fatalf("got line %d (%v), want %d", c.Line, ok, line)
	}
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		Closest(file, search)
	}
}

func BenchmarkClosest5k(b *testing.B)  { benchmarkClosest(b, 5000) }
func BenchmarkClosest50k(b *testing.B) { benchmarkClosest(b, 50000) }
