package gen

import (
	"fmt"
	"strings"
)

// LazyAnswer is a chat answer as chat tools ask for it: n code blocks
// naming their file, ten a file of 500 lines (Answer's spread), each a
// method shown without its class, its body's first lines left to an
// omission marker and its return line rewritten (a comment added). W8
// streams it beside Answer's SEARCH/REPLACE blocks of the same count,
// and beside LazyTwinAnswer, its own edits as SEARCH/REPLACE blocks.
func LazyAnswer(n int) *Workload {
	return lazyEdits(n, "a chat answer of %d lazy code blocks, %d a file", func(b *strings.Builder, step int, name string, lines []string, def, ret int) {
		fmt.Fprintf(b, "Step %d: mark the return as changed.\n\n```python %s\n%s\n        # ...existing code...\n%s  # changed\n```\n\n",
			step, name, lines[def], lines[ret])
	})
}

// LazyTwinAnswer makes LazyAnswer's edits as SEARCH/REPLACE blocks, each
// the return line (and the lines above it that make it unique) with the
// comment added: the same changes to the same files, so that what the
// two cost apart is the format's, not the edits' (a syntax check's
// incremental parse costs more for a block's last line than for a line
// inside it).
func LazyTwinAnswer(n int) *Workload {
	return lazyEdits(n, "LazyAnswer's %d edits as SEARCH/REPLACE blocks, %d a file", func(b *strings.Builder, step int, name string, lines []string, def, ret int) {
		from := ret
		for from > def && strings.Count(JoinLines(lines), JoinLines(lines[from:ret+1])) > 1 {
			from--
		}
		search := JoinLines(lines[from : ret+1])
		replace := JoinLines(append(append([]string(nil), lines[from:ret]...), lines[ret]+"  # changed"))
		fmt.Fprintf(b, "Step %d: mark the return as changed.\n\n```python\n%s```\n\n", step, strings.TrimSuffix(SRBlock(name, search, replace), "\n"))
	})
}

// lazyEdits picks n methods, ten a file of 500 lines, each by its def
// line (unique in its file) and its return line, and has block write each
// edit into the answer.
func lazyEdits(n int, desc string, block func(b *strings.Builder, step int, name string, lines []string, def, ret int)) *Workload {
	const perFile = 10
	w := &Workload{Name: "W8", Desc: fmt.Sprintf(desc, n, perFile), WantOK: true}
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
			block(&b, done+1, name, lines, s, ret)
			k++
			done++
		}
	}
	b.WriteString("That is all.\n")
	w.Patch = b.String()
	return w
}
