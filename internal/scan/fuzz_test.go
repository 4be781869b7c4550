package scan

import (
	"slices"
	"strings"
	"testing"
)

// logMissing says which levels a fuzz target cannot hold to the
// reference here; the Test functions skip them by name.
func logMissing(f *testing.F) {
	f.Helper()
	for _, l := range Levels() {
		if l.Missing != "" {
			f.Logf("level %s not run: %s", l.Name, l.Missing)
		}
	}
}

// atEachLevel calls f at every level this build and CPU can run.
func atEachLevel(f func(level string)) {
	for _, l := range Levels() {
		if l.Missing == "" {
			restore := Use(l.Name)
			f(l.Name)
			restore()
		}
	}
}

// The fuzz targets hold each scan, at every level that runs here, to its
// Go loop from the start of the text (the reference the native routine
// must equal) and that loop to the obvious one.

func FuzzIndexPair(f *testing.F) {
	logMissing(f)
	f.Add(strings.Repeat("ab", 40)+"xy", byte('x'), byte('y'), uint8(1))
	f.Add(strings.Repeat("a", 95)+"b", byte('a'), byte('b'), uint8(64))
	f.Add(strings.Repeat("abcabcbca", 30), byte('b'), byte('c'), uint8(33))
	f.Fuzz(func(t *testing.T, s string, c1, c2 byte, d uint8) {
		want := indexPairGo(s, c1, c2, int(d), 0)
		if n := naiveIndexPair(s, c1, c2, int(d)); want != n {
			t.Fatalf("indexPairGo(%q, %q, %q, %d) = %d, the obvious loop %d", s, c1, c2, d, want, n)
		}
		atEachLevel(func(level string) {
			if got := IndexPair(s, c1, c2, int(d)); got != want {
				t.Fatalf("%s: IndexPair(%q, %q, %q, %d) = %d, want %d", level, s, c1, c2, d, got, want)
			}
		})
	})
}

func FuzzIndexEither(f *testing.F) {
	logMissing(f)
	f.Add(strings.Repeat("a", 70)+"\r", byte(0), byte('\r'))
	f.Add(strings.Repeat("abc", 40), byte('x'), byte('c'))
	f.Fuzz(func(t *testing.T, s string, a, b byte) {
		want := indexEitherGo(s, a, b, 0)
		if n := naiveIndexEither(s, a, b); want != n {
			t.Fatalf("indexEitherGo(%q, %q, %q) = %d, the obvious loop %d", s, a, b, want, n)
		}
		atEachLevel(func(level string) {
			if got := IndexEither(s, a, b); got != want {
				t.Fatalf("%s: IndexEither(%q, %q, %q) = %d, want %d", level, s, a, b, got, want)
			}
		})
	})
}

// FuzzAppendIndexes also varies the room left in the list appended to, so
// that the routine stops for room as well as at the end of the text.
func FuzzAppendIndexes(f *testing.F) {
	logMissing(f)
	f.Add(strings.Repeat("c", 300), byte('c'), uint8(0))
	f.Add(strings.Repeat("acaaaaac", 50), byte('c'), uint8(40))
	f.Fuzz(func(t *testing.T, s string, c byte, room uint8) {
		want := appendIndexesGo([]int32{-1}, s, c, 0)
		if n := naiveAppendIndexes([]int32{-1}, s, c); !slices.Equal(want, n) {
			t.Fatalf("appendIndexesGo(%q, %q) = %v, the obvious loop %v", s, c, want, n)
		}
		atEachLevel(func(level string) {
			dst := append(make([]int32, 0, 1+int(room)), -1)
			if got := AppendIndexes(dst, s, c); !slices.Equal(got, want) {
				t.Fatalf("%s: AppendIndexes(room %d, %q, %q) = %v, want %v", level, room, s, c, got, want)
			}
		})
	})
}
