package core

import "testing"

func TestParseHunkRange(t *testing.T) {
	for _, tc := range []struct {
		line string
		want HunkRange
		ok   bool
	}{
		{"@@ -20,1 +20,2 @@", HunkRange{20, 1, 20, 2, true, true, ""}, true},
		{"@@ -3 +4 @@ func main() {\r", HunkRange{3, 1, 4, 1, false, false, " func main() {"}, true},
		{"@@ @@", HunkRange{}, false},
		{"@@@ -1,2 +1,2 @@@", HunkRange{}, false},
		{"@@ -99999999999999999999,1 +1,1 @@", HunkRange{}, false},
	} {
		got, ok := ParseHunkRange(tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%q: %+v %v, want %+v %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}
