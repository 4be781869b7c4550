package main

import (
	"fmt"
	"strings"

	"github.com/fsrb/fsrb/bench/gen"
)

// The workloads are defined once, in bench/gen (gen.W1-gen.W6),
// which core's and the language server's benchmarks run too; this adds how
// many times the driver runs each.

// workload is one row of the table: a gen.Workload, and how many runs it
// gets in process and as whole fsrb processes.
type workload struct {
	*gen.Workload
	runs    int // in-process runs
	cliRuns int // whole-process runs
}

func w1() *workload      { return &workload{gen.W1(), 300, 31} }
func w2() *workload      { return &workload{gen.W2(), 300, 31} }
func w3() *workload      { return &workload{gen.W3(), 300, 31} }
func w4(n int) *workload { return &workload{gen.W4(n), 100, 31} }
func w5() *workload      { return &workload{gen.W5(), 300, 31} }
func w6() *workload      { return &workload{gen.W6(), 5, 5} }

// chatAnswer is a Markdown chat answer of about n lines: prose, and W1's
// blocks in fenced code, as a model would write them.
func chatAnswer(w *workload, n int) string {
	var b strings.Builder
	b.WriteString("# Plan of the refactoring\n\n")
	blocks := strings.SplitAfter(w.Patch, ">>>>>>> REPLACE\n\n")
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
