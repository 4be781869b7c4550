package treesitter

import (
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
