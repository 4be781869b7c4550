package gen

import (
	"fmt"
	"strings"
)

// Workload is one of the benchmark workloads (W1-W6), defined here once:
// the bench driver (bench/), core's in-process benchmarks and the language
// server's benchmark all run these, generated the same way on every run
// (fixed seeds).
type Workload struct {
	Name, Desc string
	Files      map[string]string // path -> contents
	Order      []string          // the file names, in a fixed order
	Patch      string            // the patch to run on Files
	Undo       string            // a patch that takes the files back; "" when Patch fails
	Fuzzy      bool              // run with --fuzzy
	WantOK     bool              // Patch validates (else it fails on purpose: W4, W5)
	Needle     string            // SEARCH's first line: what grep -c -F and strings.Count look for
	// Lines are the 1-based lines of the file where the block sits (W2-W4),
	// or both places it sits (W5).
	Lines []int
}

func (w *Workload) add(name, data string) {
	if w.Files == nil {
		w.Files = map[string]string{}
	}
	w.Files[name] = data
	w.Order = append(w.Order, name)
}

// Size is the workload's bytes over all files.
func (w *Workload) Size() int {
	n := 0
	for _, d := range w.Files {
		n += len(d)
	}
	return n
}

// changed is a block's lines with a comment added to the first.
func changed(block []string) []string {
	return append([]string{block[0] + "  # changed"}, block[1:]...)
}

// Spread is nFiles files of nLines lines, each with perFile exact 4-line
// blocks 40 lines or more apart, all of which apply. W1 is Spread(20, 10, 500).
func Spread(nFiles, perFile, nLines int) *Workload {
	w := &Workload{Name: "W1", WantOK: true,
		Desc: fmt.Sprintf("%d blocks, %d files x %d lines", nFiles*perFile, nFiles, nLines)}
	var patch, undo strings.Builder
	for f := range nFiles {
		name := fmt.Sprintf("pkg/mod%02d.py", f)
		lines := Code(nLines, int64(100+f))
		w.add(name, JoinLines(lines))
		at := 0
		for range perFile {
			s := BlockAt(lines, at)
			search, replace := JoinLines(lines[s:s+4]), JoinLines(changed(lines[s:s+4]))
			patch.WriteString(SRBlock(name, search, replace))
			undo.WriteString(SRBlock(name, replace, search))
			if w.Needle == "" {
				w.Needle = lines[s]
			}
			at = s + 40
		}
	}
	w.Patch, w.Undo = patch.String(), undo.String()
	return w
}

// W1: 200 blocks over 20 files of 500 lines (10 exact blocks per file).
func W1() *Workload { return Spread(20, 10, 500) }

// W2: one exact 5-line block near the end of a 20,000-line file.
func W2() *Workload {
	lines := Code(20000, 2)
	s := BlockAt(lines, 19000)
	w := &Workload{Name: "W2", Desc: "1 block near the end, 20,000 lines", WantOK: true, Needle: lines[s], Lines: []int{s + 1}}
	w.add("big.py", JoinLines(lines))
	search, replace := JoinLines(lines[s:s+5]), JoinLines(changed(lines[s:s+5]))
	w.Patch, w.Undo = SRBlock("big.py", search, replace), SRBlock("big.py", replace, search)
	return w
}

// W3: the W2 block with its indentation 4 spaces short (--fuzzy); REPLACE
// comes out at the file's indentation, as W2's patch would leave the file.
func W3() *Workload {
	lines := Code(20000, 2)
	s := BlockAt(lines, 19000)
	w := &Workload{Name: "W3", Desc: "indentation 4 short, 20,000 lines, --fuzzy", WantOK: true, Fuzzy: true, Needle: lines[s], Lines: []int{s + 1}}
	w.add("big.py", JoinLines(lines))
	var search, replace strings.Builder
	for i, l := range lines[s : s+5] {
		search.WriteString(l[4:] + "\n")
		if i == 0 {
			replace.WriteString(l[4:] + "  # changed\n")
		} else {
			replace.WriteString(l[4:] + "\n")
		}
	}
	w.Patch = SRBlock("big.py", search.String(), replace.String())
	w.Undo = SRBlock("big.py", JoinLines(changed(lines[s:s+5])), JoinLines(lines[s:s+5]))
	return w
}

// W4: a one-line typo in the middle line of a 5-line block in a file of n
// lines: not found, the closest match names the block's lines.
func W4(n int) *Workload {
	lines := Code(n, 4)
	s := BlockAt(lines, n/2)
	block := Typo(lines[s : s+5])
	w := &Workload{Name: fmt.Sprintf("W4 %dk", n/1000), Desc: fmt.Sprintf("typo, %d lines (closest match)", n), Needle: lines[s], Lines: []int{s + 1}}
	w.add("big.py", JoinLines(lines))
	w.Patch = SRBlock("big.py", JoinLines(block), "pass\n")
	return w
}

// W5: a 5-line block that occurs twice in a 2,000-line file: ambiguous,
// both places reported (with tree-sitter's suggestions where it runs).
func W5() *Workload {
	lines := Code(2000, 5)
	s := BlockAt(lines, 300)
	block := append([]string{}, lines[s:s+5]...)
	at := 1500 // the block again, further down, as a second place
	lines = append(append(append([]string{}, lines[:at]...), block...), lines[at:]...)
	w := &Workload{Name: "W5", Desc: "ambiguous, 2,000 lines, tree-sitter", Needle: block[0], Lines: []int{s + 1, at + 1}}
	w.add("two.py", JoinLines(lines))
	w.Patch = SRBlock("two.py", JoinLines(block), "pass\n")
	return w
}

// W6: one block in a 100 MB file. A 20,000-line chunk repeats (generating
// 100 MB line by line would take longer than the runs); the block, near
// the end, holds a line found nowhere else.
func W6() *Workload {
	chunk := JoinLines(Code(20000, 6))
	const size = 100 << 20
	var b strings.Builder
	b.Grow(size + len(chunk))
	for b.Len() < size*99/100 {
		b.WriteString(chunk)
	}
	block := []string{
		"class Needle:",
		"    def w6_needle(self, key):",
		"        value = self.load_index(key)",
		"        return value",
		"",
	}
	b.WriteString(JoinLines(block))
	for b.Len() < size {
		b.WriteString(chunk[:min(len(chunk), size-b.Len())])
		if s := b.String(); !strings.HasSuffix(s, "\n") {
			b.WriteString("\n")
		}
	}
	w := &Workload{Name: "W6", Desc: "1 block in a 100 MB file", WantOK: true, Needle: block[1]}
	w.add("huge.txt", b.String())
	search := JoinLines(block[1:4])
	replace := JoinLines(changed(block[1:4]))
	w.Patch, w.Undo = SRBlock("huge.txt", search, replace), SRBlock("huge.txt", replace, search)
	return w
}

// Answer is a model's Markdown chat answer of n blocks over files of 500
// lines, ten blocks a file, all valid, as W8 streams it into the language
// server: a line of prose, then each block (two lines changed) in a
// fence; about 300 bytes a block.
func Answer(n int) *Workload {
	return answer(n, 10, 500, func(lines []string, at int) (int, int) { s := BlockAt(lines, at); return s, s + 40 })
}

// DenseAnswer is Answer's answer with n blocks over ten files of 300
// lines, n/10 blocks a file (50 a file for 500 blocks): the shape where
// what a chunk costs would grow with the blocks of its file.
func DenseAnswer(n int) *Workload {
	per := max(1, n/10)
	return answer(n, per, 300, func(lines []string, at int) (int, int) { s := PairAt(lines, at); return s, s + 2 })
}

// answer writes n blocks, perFile to a file of nLines lines; pick gives
// the first line of the next block at or after a line, and where to look
// for the one after it.
func answer(n, perFile, nLines int, pick func(lines []string, at int) (int, int)) *Workload {
	w := &Workload{Name: "W8", Desc: fmt.Sprintf("a chat answer of %d blocks, %d a file", n, perFile), WantOK: true}
	var b strings.Builder
	b.WriteString("Here are the changes.\n\n")
	for f := 0; f*perFile < n; f++ {
		name := fmt.Sprintf("pkg/mod%02d.py", f)
		lines := Code(nLines, int64(100+f))
		w.add(name, JoinLines(lines))
		at := 0
		for k := 0; k < perFile && f*perFile+k < n; k++ {
			s, next := pick(lines, at)
			if w.Needle == "" {
				w.Needle = lines[s]
			}
			search := JoinLines(lines[s : s+2])
			replace := JoinLines([]string{lines[s] + "  # changed", lines[s+1]})
			fmt.Fprintf(&b, "Step %d: mark the line as changed.\n\n```python\n%s```\n\n", f*perFile+k+1, strings.TrimSuffix(SRBlock(name, search, replace), "\n"))
			at = next
		}
	}
	b.WriteString("That is all.\n")
	w.Patch = b.String()
	return w
}
