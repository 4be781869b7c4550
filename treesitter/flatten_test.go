package treesitter

import (
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/fsrb/fsrb/bench/gen"
)

// TestFlattenMatchesCursor holds the walk of the subtrees that outlines
// read (tsparse.Flatten) to the same walk through the runtime's public
// cursor (flattenTreeCursor), node for node: positions, symbols (aliases
// among them), fields (inherited through hidden nodes), links, and what
// is read below which node. Every language's sample goes through random
// edits, broken code included, each tree reparsed from the last as an
// editor's are, and is flattened whole, root level alone, and in a
// random window, of the root's children and at every depth.
func TestFlattenMatchesCursor(t *testing.T) {
	srcs := map[string]string{"generated.py": gen.JoinLines(gen.Code(300, 11))}
	for _, f := range samplePaths(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[filepath.Base(f)] = string(b)
	}
	bits := []string{"", "x", "\n", " ", "    ", "\t", "(", ")", "{", "}", "\"", "'", "#", "//", "/*", "*/", "<", ">", ":", ";", "  # note"}
	steps := 60
	if testing.Short() {
		steps = 15
	}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(len(src))))
			c := NewCache(2)
			compared := 0
			for step := range steps {
				if step > 0 {
					src = mutate(rng, src, bits)
				}
				tr, err := c.Parse(name, step+1, []byte(src), nil)
				if err != nil {
					t.Fatal(err)
				}
				flags := symbolsOf(tr.Lang).flags
				lo := uint32(rng.Intn(len(src) + 1))
				hi := lo + uint32(rng.Intn(len(src)-int(lo)+1))
				for _, w := range [][3]uint32{{0, math.MaxUint32, 1}, {0, 0, 1}, {lo, hi, 1}, {lo, hi, math.MaxUint32}} {
					got, free := flattenTree(tr.t, tr.content, flags, w[0], w[1], w[2])
					want, freeWant := flattenTreeCursor(tr.t, tr.content, flags, w[0], w[1], w[2])
					if len(want) == 0 {
						t.Fatalf("step %d: the cursor's walk read nothing", step)
					}
					if !slices.Equal(got, want) {
						t.Errorf("step %d, window %v: %d nodes, the cursor's %d; first difference at %d\n%s", step, w, len(got), len(want), firstDiff(got, want), src)
					}
					compared += len(want)
					free()
					freeWant()
				}
				if t.Failed() {
					return
				}
			}
			t.Logf("%d nodes compared", compared)
		})
	}
}

// firstDiff is the index of the first node two flattenings differ in.
func firstDiff(a, b []flatNode) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// BenchmarkFlatten is the flattening alone of a 2,000-line file's tree,
// the whole tree as a file's first outline reads it: the walk of its
// subtrees (tsparse.Flatten), and the cursor's walk it replaced.
func BenchmarkFlatten(b *testing.B) {
	for _, f := range []struct{ name, path, text string }{
		{"python", "gen.py", gen.JoinLines(gen.Code(2000, 1))},
		{"go", "gen.go", goFile(2000)},
	} {
		c := NewCache(1)
		c.Timeout = time.Minute // the parse is not measured: under valgrind it takes seconds
		t, err := c.Parse(f.path, 0, []byte(f.text), nil)
		if err != nil {
			b.Fatal(err)
		}
		flags := symbolsOf(t.Lang).flags
		for _, w := range []struct {
			name    string
			flatten func(*sitter.Tree, []byte, []byte, uint32, uint32, uint32) ([]flatNode, func())
		}{{"subtrees", flattenTree}, {"cursor", flattenTreeCursor}} {
			b.Run(f.name+"/"+w.name, func(b *testing.B) {
				for b.Loop() {
					nodes, free := w.flatten(t.t, t.content, flags, 0, math.MaxUint32, 1)
					if len(nodes) == 0 {
						b.Fatal("no nodes")
					}
					free()
				}
			})
		}
	}
}
