package treesitter

import (
	"strings"
	"testing"
	"time"

	"github.com/fsrb/fsrb/bench/gen"
)

// BenchmarkOutline is the outline of a 2,000-line file whose tree is
// parsed and cached once: the flattening of the tree (one cgo call) and
// the walk, as a resolver pays them on a file's first outline (later
// calls find it cached; BenchmarkOutlineCached).
func BenchmarkOutline(b *testing.B) {
	for _, f := range []struct{ name, path, text string }{
		{"python", "gen.py", gen.JoinLines(gen.Code(2000, 1))},
		{"go", "gen.go", goFile(2000)},
	} {
		b.Run(f.name, func(b *testing.B) {
			c := NewCache(1)
			c.Timeout = time.Minute // the parse is not measured: under valgrind it takes seconds
			t, err := c.Parse(f.path, 0, []byte(f.text), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if items := outlineOf(t.Lang, t.content, t.lines, t.t, nil); len(items) == 0 {
					b.Fatal("no items")
				}
			}
		})
	}
}

// BenchmarkOutlineCached is Cache.Outline of a 2,000-line file already
// outlined: the cache's lookup by content.
func BenchmarkOutlineCached(b *testing.B) {
	for _, f := range []struct{ name, path, text string }{
		{"python", "gen.py", gen.JoinLines(gen.Code(2000, 1))},
		{"go", "gen.go", goFile(2000)},
	} {
		b.Run(f.name, func(b *testing.B) {
			c := NewCache(1)
			if _, ok := c.Outline(f.path, f.text); !ok {
				b.Fatal("no outline")
			}
			b.ReportAllocs()
			for b.Loop() {
				if items, _ := c.Outline(f.path, f.text); len(items) == 0 {
					b.Fatal("no items")
				}
			}
		})
	}
}

// BenchmarkOutlineSpliced is the outline of the same 2,000-line file with
// a comment added to a line in its middle, spliced from the outline
// before the edit (BenchmarkOutline walks it whole), as a resolver's
// stability check outlines the file a block writes.
func BenchmarkOutlineSpliced(b *testing.B) {
	for _, f := range []struct{ name, path, text, comment string }{
		{"python", "gen.py", gen.JoinLines(gen.Code(2000, 3)), "  # changed"}, // seed 1 ends in a cut class: no splice
		{"go", "gen.go", goFile(2000), " // changed"},
	} {
		b.Run(f.name, func(b *testing.B) {
			c := NewCache(2)
			c.Timeout = time.Minute
			if _, ok := c.Outline(f.path, f.text); !ok {
				b.Fatal("no outline")
			}
			lines := strings.SplitAfter(f.text, "\n")
			mid := len(lines) / 2
			for strings.TrimSpace(lines[mid]) == "" || strings.HasSuffix(strings.TrimSpace(lines[mid]), ":") {
				mid++
			}
			lines[mid] = strings.TrimSuffix(lines[mid], "\n") + f.comment + "\n"
			edited := strings.Join(lines, "")
			prev := c.outlines.nearest(f.path)
			t, err := c.Parse(f.path, 0, []byte(edited), nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, spliced := t.outline(prev, true); !spliced {
					b.Fatal("not spliced")
				}
			}
		})
	}
}
