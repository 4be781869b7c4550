package main

import (
	"fmt"
	"strings"

	"github.com/fsrb/fsrb/bench/gen"
)

// The workloads of issue 9, generated the same way on every run (fixed
// seeds): Python-like code with 4-space indentation, nested blocks, blank
// lines and repeated short lines, as core/bench_test.go generates it.

// workload is one row of the table: files to put under a root, a patch to
// run on them, and what the run must end in.
type workload struct {
	name, desc string
	files      map[string][]byte
	order      []string // file names, in a fixed order
	patch      string   // the patch the CLI and Validate run
	undo       string   // a patch that takes the files back (for repeated applies); "" when patch fails
	fuzzy      bool
	wantOK     bool   // the patch validates (else: it fails on purpose, W4/W5)
	needle     string // what grep -c -F and strings.Count look for: SEARCH's first line
	runs       int    // in-process runs
	cliRuns    int    // whole-process runs
}

func (w *workload) add(name string, data []byte) {
	if w.files == nil {
		w.files = map[string][]byte{}
	}
	w.files[name] = data
	w.order = append(w.order, name)
}

func (w *workload) size() int {
	n := 0
	for _, d := range w.files {
		n += len(d)
	}
	return n
}

// changed is a block's lines with a comment added to the first.
func changed(block []string) []string {
	return append([]string{block[0] + "  # changed"}, block[1:]...)
}

// w1: 200 blocks over 20 files of 500 lines (10 exact blocks per file).
func w1() *workload {
	w := &workload{name: "W1", desc: "200 blocks, 20 files x 500 lines", wantOK: true, runs: 300, cliRuns: 15}
	var patch, undo strings.Builder
	for f := range 20 {
		name := fmt.Sprintf("pkg/mod%02d.py", f)
		lines := gen.Code(500, int64(100+f))
		w.add(name, []byte(gen.JoinLines(lines)))
		at := 0
		for range 10 {
			s := gen.BlockAt(lines, at)
			search, replace := gen.JoinLines(lines[s:s+4]), gen.JoinLines(changed(lines[s:s+4]))
			patch.WriteString(gen.SRBlock(name, search, replace))
			undo.WriteString(gen.SRBlock(name, replace, search))
			if w.needle == "" {
				w.needle = lines[s]
			}
			at = s + 40
		}
	}
	w.patch, w.undo = patch.String(), undo.String()
	return w
}

// w2: one exact 5-line block near the end of a 20,000-line file.
func w2() *workload {
	lines := gen.Code(20000, 2)
	s := gen.BlockAt(lines, 19000)
	w := &workload{name: "W2", desc: "1 block near the end, 20,000 lines", wantOK: true, runs: 300, cliRuns: 15, needle: lines[s]}
	w.add("big.py", []byte(gen.JoinLines(lines)))
	search, replace := gen.JoinLines(lines[s:s+5]), gen.JoinLines(changed(lines[s:s+5]))
	w.patch, w.undo = gen.SRBlock("big.py", search, replace), gen.SRBlock("big.py", replace, search)
	return w
}

// w3: the W2 block with its indentation 4 spaces short (--fuzzy).
func w3() *workload {
	lines := gen.Code(20000, 2)
	s := gen.BlockAt(lines, 19000)
	w := &workload{name: "W3", desc: "indentation 4 short, 20,000 lines, --fuzzy", wantOK: true, fuzzy: true, runs: 300, cliRuns: 15, needle: lines[s]}
	w.add("big.py", []byte(gen.JoinLines(lines)))
	var search, replace strings.Builder
	for i, l := range lines[s : s+5] {
		search.WriteString(l[4:] + "\n")
		if i == 0 {
			replace.WriteString(l[4:] + "  # changed\n")
		} else {
			replace.WriteString(l[4:] + "\n")
		}
	}
	w.patch = gen.SRBlock("big.py", search.String(), replace.String())
	w.undo = gen.SRBlock("big.py", gen.JoinLines(changed(lines[s:s+5])), gen.JoinLines(lines[s:s+5]))
	return w
}

// w4: a one-line typo in the middle line of a 5-line block: not found, the
// closest match names the block's lines.
func w4(n int) *workload {
	lines := gen.Code(n, 4)
	s := gen.BlockAt(lines, n/2)
	block := gen.Typo(lines[s : s+5])
	w := &workload{name: fmt.Sprintf("W4 %dk", n/1000), desc: fmt.Sprintf("typo, %d lines (closest match)", n), runs: 100, cliRuns: 15, needle: lines[s]}
	w.add("big.py", []byte(gen.JoinLines(lines)))
	w.patch = gen.SRBlock("big.py", gen.JoinLines(block), "pass\n")
	return w
}

// w5: a 5-line block that occurs twice in a 2,000-line file: ambiguous,
// both places reported with tree-sitter's suggestions.
func w5() *workload {
	lines := gen.Code(2000, 5)
	s := gen.BlockAt(lines, 300)
	block := append([]string{}, lines[s:s+5]...)
	at := 1500
	lines = append(append(append([]string{}, lines[:at]...), block...), lines[at:]...)
	w := &workload{name: "W5", desc: "ambiguous, 2,000 lines, tree-sitter", runs: 300, cliRuns: 15, needle: block[0]}
	w.add("two.py", []byte(gen.JoinLines(lines)))
	w.patch = gen.SRBlock("two.py", gen.JoinLines(block), "pass\n")
	return w
}

// w6: one block in a 100 MB file. A 20,000-line chunk repeats (generating
// 100 MB line by line would take longer than the runs); the block, near
// the end, holds a line found nowhere else.
func w6() *workload {
	chunk := gen.JoinLines(gen.Code(20000, 6))
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
	b.WriteString(gen.JoinLines(block))
	for b.Len() < size {
		b.WriteString(chunk[:min(len(chunk), size-b.Len())])
		if s := b.String(); !strings.HasSuffix(s, "\n") {
			b.WriteString("\n")
		}
	}
	w := &workload{name: "W6", desc: "1 block in a 100 MB file", wantOK: true, runs: 5, cliRuns: 5, needle: block[1]}
	w.add("huge.txt", []byte(b.String()))
	search := gen.JoinLines(block[1:4])
	replace := gen.JoinLines(changed(block[1:4]))
	w.patch, w.undo = gen.SRBlock("huge.txt", search, replace), gen.SRBlock("huge.txt", replace, search)
	return w
}

// chatAnswer is a Markdown chat answer of about n lines: prose, and W1's
// blocks in fenced code, as a model would write them.
func chatAnswer(w *workload, n int) string {
	var b strings.Builder
	b.WriteString("# Plan of the refactoring\n\n")
	blocks := strings.SplitAfter(w.patch, ">>>>>>> REPLACE\n\n")
	lines := 2
	for i := 0; lines < n; i++ {
		for k := range 8 {
			fmt.Fprintf(&b, "Step %d, note %d: the loader keeps its cache warm, so the change below only touches the lines it names.\n", i, k)
		}
		b.WriteString("\n```python\n")
		blk := strings.TrimSuffix(blocks[i%len(blocks)], "\n")
		if i >= len(blocks) {
			blk = "" // every block once; prose after that
		}
		b.WriteString(blk)
		b.WriteString("```\n\n")
		lines += 13 + strings.Count(blk, "\n")
	}
	return b.String()
}
