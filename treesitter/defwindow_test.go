package treesitter

import (
	"fmt"
	"strings"
	"testing"
)

// TestExplainWindowsAgree checks that windows of top-level statements name
// the same definitions, signatures, lines and widenings as the whole-file
// parse, at the edges a window has.
func TestExplainWindowsAgree(t *testing.T) {
	for _, c := range []struct {
		name, src, search string
		windows           bool // answered from windows
	}{
		{"two methods", pyClasses(20), "        return value\n", true},
		{"decorated class and method", "import x\n\n@dataclass\nclass A:\n    @property\n    def f(self):\n        return 1\n\n@other\n# note\n@dataclass\nclass B:\n    def f(self):\n        return 1\n", "        return 1\n", true},
		{"nested classes", "class A:\n    class B:\n        def f(self):\n            return 1\n\nclass C:\n    class B:\n        def f(self):\n            return 1\n", "            return 1\n", true},
		{"comment at column 0 inside a method", "class A:\n    def f(self):\n        x = 1\n# old code\n        return x\n\nclass B:\n    def f(self):\n        x = 1\n# old code\n        return x\n", "        return x\n", true},
		{"docstring at column 0", "def f():\n    \"\"\"Doc.\n\ndef g():\n    pass\n\"\"\"\n    return 1\n\ndef h():\n    return 1\n", "    return 1\n", true},
		{"backslash continuation at column 0", "def f():\n    x = 1 + \\\n2\n    return 1\n\ndef g():\n    return 1\n", "    return 1\n", true},
		{"top level", "x = 1\nif x:\n    y = 2\nelse:\n    y = 2\n", "    y = 2\n", true},
		{"CRLF", "class A:\r\n    def f(self):\r\n        return 1\r\n\r\nclass B:\r\n    def f(self):\r\n        return 1\r\n", "        return 1\r\n", true},
		{"no final newline", "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1", "        return 1", true},
		{"bracket left open in a body", "class A:\n    def f(self):\n        return (1\n        return 1\n\nclass B:\n    def f(self):\n        return 1\n", "        return 1\n", false},
		{"a place's body broken as W5's", "class A:\n    def f(self):\n        try:\n            x = 1\n        except KeyError:\n            pass\n\nclass B:\n    def g(self):\n        y = 2\n            x = 1\n        except KeyError:\n            pass\n        return y\n", "            x = 1\n        except KeyError:\n            pass\n", true},
		{"unfinished class at the end", "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1\nclass C(:\n", "        return 1\n", true},
		{"signature broken", "class A:\n    def f(self:\n        return 1\n\nclass B:\n    def f(self):\n        return 1\n", "        return 1\n", false},
		{"string left open after the window", "class A:\n    def f(self):\n        return 1\n\nclass B:\n    def f(self):\n        return 1\nx = '''\n", "        return 1\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var occ []int
			for i := 0; ; {
				j := strings.Index(c.src[i:], c.search)
				if j < 0 {
					break
				}
				occ = append(occ, i+j)
				i += j + 1
			}
			if len(occ) < 2 {
				t.Fatalf("%d places", len(occ))
			}
			whole := NewCache(4)
			whole.WholeFiles = true
			want := whole.Widen("a.py", c.src, c.search, "pass\n", occ)
			got := NewCache(4).Widen("a.py", c.src, c.search, "pass\n", occ)
			if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", want) {
				t.Errorf("windows\n%+v\nwhole file\n%+v", got, want)
			}
			starts := lineStarts([]byte(c.src))
			var ranges [][2]int
			for _, o := range occ {
				ranges = append(ranges, [2]int{o, o + len(c.search)})
			}
			_, ok := NewCache(4).windowChains(theRegistry().byName["python"], "a.py", []byte(c.src), starts, ranges)
			if ok != c.windows {
				t.Errorf("answered from windows: %v, want %v", ok, c.windows)
			}
			if len(want) > 0 && len(want[0].Definitions) == 0 && c.name == "two methods" {
				t.Error("no definitions")
			}
		})
	}
}
