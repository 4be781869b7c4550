package core

import "testing"

// TestSmallSet: the same answers as a map, below and past the size where
// the slice becomes a map.
func TestSmallSet(t *testing.T) {
	var s smallSet[int]
	want := map[int]bool{}
	for k := 0; k < 3*smallSetMax; k++ {
		key := (k * 7) % (2 * smallSetMax) // some keys twice
		s.add(key)
		want[key] = true
		for q := -1; q <= 2*smallSetMax; q++ {
			if s.has(q) != want[q] {
				t.Fatalf("after %d adds, has(%d) = %v, want %v", k+1, q, s.has(q), want[q])
			}
		}
	}
	if s.m == nil {
		t.Errorf("%d keys and still a slice", len(want))
	}
}
