package gen

import (
	"fmt"
	"strings"
)

// LazyAnswer is a chat answer as chat tools ask for it: n code blocks
// naming their file, ten a file of 500 lines (Answer's spread), each a
// method shown without its class, its body's first lines left to an
// omission marker and its return line rewritten (a comment added). W8
// streams it beside Answer's SEARCH/REPLACE blocks of the same count.
func LazyAnswer(n int) *Workload {
	const perFile = 10
	w := &Workload{Name: "W8", Desc: fmt.Sprintf("a chat answer of %d lazy code blocks, %d a file", n, perFile), WantOK: true}
	var b strings.Builder
	b.WriteString("Here are the changes.\n\n")
	for f, done := 0, 0; done < n; f++ {
		name := fmt.Sprintf("pkg/lazy%03d.py", f)
		lines := Code(500, int64(500+f))
		w.add(name, JoinLines(lines))
		count := map[string]int{}
		for _, l := range lines {
			count[l]++
		}
		k := 0
		for s := 0; s < len(lines) && k < perFile && done < n; s++ {
			if !strings.HasPrefix(lines[s], "    def ") || count[lines[s]] != 1 {
				continue
			}
			ret := -1 // the method's return line, at its body's level
			for e := s + 1; e < len(lines) && !strings.HasPrefix(lines[e], "    def ") && !strings.HasPrefix(lines[e], "class "); e++ {
				if strings.HasPrefix(lines[e], "        return ") {
					ret = e
				}
			}
			if ret < 0 {
				continue
			}
			if w.Needle == "" {
				w.Needle = lines[s]
			}
			fmt.Fprintf(&b, "Step %d: mark the return as changed.\n\n```python %s\n%s\n        # ...existing code...\n%s  # changed\n```\n\n",
				done+1, name, lines[s], lines[ret])
			k++
			done++
		}
	}
	b.WriteString("That is all.\n")
	w.Patch = b.String()
	return w
}
