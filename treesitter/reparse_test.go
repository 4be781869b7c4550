package treesitter

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
)

// TestReparseMatchesFreshEverySample reparses every language's sample
// through chains of random edits, line-shaped and byte-shaped, and holds
// each incremental tree of clean code to a fresh parse node by node. The parser reuses
// more of the old tree than the binding's (internal/tsparse): a node it
// should not have reused would show here, in whichever grammar's
// external scanner the rule is wrong for.
func TestReparseMatchesFreshEverySample(t *testing.T) {
	files := samplePaths(t)
	srcs := map[string]string{"generated.py": gen.JoinLines(gen.Code(300, 7))}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[filepath.Base(f)] = string(b)
	}
	bits := []string{"", "x", "\n", " ", "    ", "\t", "(", ")", "{", "}", "\"", "'", "`", "#", "//", "/*", "*/", "<", ">", ":", ";", "\\", "<<EOF\n", "EOF\n", "  # note", " // note", "'''"}
	for name, src := range srcs {
		t.Run(name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(len(src))))
			c := NewCache(4)
			if _, err := c.Parse(name, 1, []byte(src), nil); err != nil {
				t.Fatal(err)
			}
			for step := 2; step < reparseSteps; step++ {
				next := mutate(rng, src, bits)
				inc, err := c.Parse(name, step, []byte(next), nil)
				if err != nil {
					t.Fatal(err)
				}
				fresh, err := NewCache(1).Parse(name, step, []byte(next), nil)
				if err != nil {
					t.Fatal(err)
				}
				// Error recovery may take another path from another start:
				// of broken code, the trees must agree that it is broken.
				if fresh.HasError() {
					if !inc.HasError() {
						t.Fatalf("step %d: the incremental tree has no error, a fresh parse has\nbefore:\n%s\nafter:\n%s", step, src, next)
					}
				} else if d := sameTree(inc, fresh); d != "" {
					t.Fatalf("step %d: incremental tree differs: %s\nbefore:\n%s\nafter:\n%s", step, d, src, next)
				}
				// Now and then go back: a reparse from the edited text to
				// the one before undoes an edit.
				if rng.Intn(4) > 0 {
					src = next
				}
			}
		})
	}
}

// mutate makes one random edit of src: a line deleted, copied elsewhere
// or changed at its end, or a few bytes replaced by one of bits.
func mutate(rng *rand.Rand, src string, bits []string) string {
	lines := strings.SplitAfter(src, "\n")
	i := rng.Intn(len(lines))
	switch rng.Intn(5) {
	case 0:
		lines = append(lines[:i:i], lines[i+1:]...)
	case 1:
		j := rng.Intn(len(lines))
		lines = append(lines[:j:j], append([]string{lines[i]}, lines[j:]...)...)
	case 2:
		l := strings.TrimSuffix(lines[i], "\n")
		lines[i] = l + bits[rng.Intn(len(bits))] + strings.TrimPrefix(lines[i], l)
	default:
		s := rng.Intn(len(src) + 1)
		e := min(len(src), s+rng.Intn(6))
		return src[:s] + bits[rng.Intn(len(bits))] + src[e:]
	}
	return strings.Join(lines, "")
}

// reparseSteps is how many edits each sample goes through.
const reparseSteps = 160
