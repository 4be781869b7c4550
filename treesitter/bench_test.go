package treesitter

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
	"github.com/fsrb/fsrb/core"
)

// goFile generates a Go file of about n lines: types with methods and
// plain functions, each function 10 lines long.
func goFile(n int) string {
	var b strings.Builder
	b.WriteString("package gen\n\nimport \"fmt\"\n\n")
	lines := 4
	for i := 0; lines < n; i++ {
		if i%4 == 0 {
			fmt.Fprintf(&b, "type T%d struct {\n\tn int\n\tname string\n}\n\n", i)
			lines += 5
		}
		recv := ""
		if i%2 == 0 {
			recv = fmt.Sprintf("(t *T%d) ", i-i%4)
		}
		fmt.Fprintf(&b, "func %sf%d(x int) int {\n", recv, i)
		b.WriteString("\tif x < 0 {\n\t\treturn -x\n\t}\n")
		b.WriteString("\tfor i := 0; i < 3; i++ {\n\t\tx += i\n\t}\n")
		fmt.Fprintf(&b, "\tfmt.Println(%q, x)\n", fmt.Sprint("f", i))
		b.WriteString("\treturn x + 1\n}\n\n")
		lines += 10
	}
	return b.String()
}

const benchLines = 10000

// BenchmarkParseFull is a fresh parse of a 10,000-line Go file.
func BenchmarkParseFull(b *testing.B) {
	src := []byte(goFile(benchLines))
	lang := theRegistry().byName["go"]
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := lang.parse(context.Background(), DefaultParseTimeout, nil, src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReparseOneLineEdit edits one line of a 10,000-line Go file per
// iteration and re-parses through the cache, incrementally from the
// previous tree (text diff, line index and tree copy included).
func BenchmarkReparseOneLineEdit(b *testing.B) {
	src := goFile(benchLines)
	cur := "\treturn x + 1\n"
	at := strings.Index(src, `fmt.Println("f500", x)`)
	at += strings.Index(src[at:], cur)
	c := NewCache(1)
	if _, err := c.Parse("big.go", 0, []byte(src), nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		line := fmt.Sprintf("\treturn x + %d\n", i)
		next := src[:at] + line + src[at+len(cur):]
		edit := &Edit{StartByte: at, OldEndByte: at + len(cur), NewEndByte: at + len(line)}
		if _, err := c.Parse("big.go", i, []byte(next), edit); err != nil {
			b.Fatal(err)
		}
		src, cur = next, line
	}
}

// BenchmarkReparsePythonEdit edits the first method's return line of a
// 500-line Python file per iteration, a streamed answer's first block,
// and reparses through the cache: the edit near the top is where a
// reparse that cannot reuse what follows an edit costs the most.
func BenchmarkReparsePythonEdit(b *testing.B) {
	lines := gen.Code(500, 500)
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "        return ") })
	base := lines[at]
	c := NewCache(1)
	if _, err := c.Parse("a.py", 0, []byte(gen.JoinLines(lines)), nil); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		lines[at] = fmt.Sprintf("%s  # changed %d", base, i)
		if _, err := c.Parse("a.py", i, []byte(gen.JoinLines(lines)), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnclosingDefinitions looks up the chain around a line in the
// middle of a 10,000-line Go file: the tree and its definitions are cached
// after the first call.
func BenchmarkEnclosingDefinitions(b *testing.B) {
	src := []byte(goFile(benchLines))
	at := strings.Index(string(src), `fmt.Println("f500", x)`)
	c := NewCache(1)
	b.ReportAllocs()
	for b.Loop() {
		defs, err := c.EnclosingDefinitions("big.go", src, at, at+10)
		if err != nil || len(defs) != 1 {
			b.Fatal(defs, err)
		}
	}
}

// BenchmarkEnclosingDefinitionsCold is the first call on a new file: parse,
// definitions query and lookup.
func BenchmarkEnclosingDefinitionsCold(b *testing.B) {
	src := []byte(goFile(benchLines))
	at := strings.Index(string(src), `fmt.Println("f500", x)`)
	b.ReportAllocs()
	for b.Loop() {
		defs, err := NewCache(1).EnclosingDefinitions("big.go", src, at, at+10)
		if err != nil || len(defs) != 1 {
			b.Fatal(defs, err)
		}
	}
}

// BenchmarkSyntaxProblemsW1 is the CLI's syntax check of W1's plan (bench/gen):
// 20 files of 500 lines, 10 edits each.
func BenchmarkSyntaxProblemsW1(b *testing.B) {
	w := gen.W1()
	plan := core.Validate(core.Parse(w.Patch, core.ParseOptions{}), core.MapFS(w.Files), core.Options{})
	if !plan.OK() {
		b.Fatal(plan.Problems)
	}
	c := NewCache(0)
	b.ReportAllocs()
	for b.Loop() {
		if ps := c.SyntaxProblems(plan); len(ps) != 0 {
			b.Fatal(ps)
		}
	}
}
