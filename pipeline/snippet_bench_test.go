package pipeline_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
	"github.com/fsrb/fsrb/treesitter"
)

// lazyWorkload is a Python file of about 2,000 lines (40 classes of 5
// methods) and a lazy answer for it with 10 omission markers: four
// methods of one class rewritten (a statement each, the last line of
// two), and one method added.
func lazyWorkload() (file, answer string) {
	var f strings.Builder
	f.WriteString("import os\nimport sys\n\n\n")
	for c := range 40 {
		fmt.Fprintf(&f, "class Service%d:\n    retries = %d\n\n", c, c)
		for m := range 5 {
			fmt.Fprintf(&f, "    def method%d(self, jobs):\n", m)
			fmt.Fprintf(&f, "        total = %d\n", m)
			f.WriteString("        for job in jobs:\n            total += job.cost\n            self.log(job)\n")
			fmt.Fprintf(&f, "        if total > %d:\n            raise ValueError(total)\n", 100*m)
			f.WriteString("        return total\n\n")
		}
		f.WriteString("\n")
	}
	var a strings.Builder
	a.WriteString("Here is the change:\n\n````python svc.py\n# ...existing code...\n\nclass Service20:\n    # ...existing code...\n\n")
	for m := range 4 {
		fmt.Fprintf(&a, "    def method%d(self, jobs):\n        total = %d\n        # ...existing code...\n", m, 10+m)
		if m < 2 {
			fmt.Fprintf(&a, "        if total > %d:\n            raise ValueError(total)\n        # ...existing code...\n\n", 100*m)
			continue
		}
		a.WriteString("        return total * 2\n\n")
	}
	a.WriteString("    def method9(self):\n        return 9\n\n    # ...existing code...\n\n# ...existing code...\n````\n")
	return f.String(), a.String()
}

// BenchmarkLazySnippet resolves the lazy answer in process: parse,
// tree-sitter's outline of the file and of the block, pairing, and the
// new content. cached: the file's outline is in the cache (an editor
// validating again); fresh: the file's text differs each time (a CLI
// run), so it is parsed.
func BenchmarkLazySnippet(b *testing.B) {
	file, answer := lazyWorkload()
	check := func(b *testing.B, fsys core.MapFS) {
		patch := core.Parse(answer, core.ParseOptions{Snippets: true})
		plan := pipeline.Validate(patch, fsys, pipeline.Check{Checker: pipeline.Disk})
		if !plan.OK() || plan.Blocks[0].Shape != core.ShapeLazy || len(plan.Blocks[0].Kept) != 10 {
			b.Fatalf("the answer does not resolve as lazy with 10 markers: %v %+v", plan.Problems, plan.Blocks)
		}
	}
	b.Run("cached", func(b *testing.B) {
		fsys := core.MapFS{"svc.py": file}
		check(b, fsys)
		b.ReportAllocs()
		for b.Loop() {
			check(b, fsys)
		}
	})
	b.Run("fresh", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			i++
			check(b, core.MapFS{"svc.py": file + fmt.Sprintf("# %d\n", i)})
		}
	})
}

// BenchmarkLazyMethods validates W8's lazy answer of ten blocks over one
// 500-line file (gen.LazyAnswer): each shows a method without its class,
// which the resolver looks for in every body of the file, and each is
// checked again on the file it writes. The file's outlines are cached
// after the first run, as in an editor.
func BenchmarkLazyMethods(b *testing.B) {
	w := gen.LazyAnswer(10)
	fsys := core.MapFS(w.Files)
	check := func(b *testing.B) {
		patch := core.Parse(w.Patch, core.ParseOptions{Snippets: true})
		plan := pipeline.Validate(patch, fsys, pipeline.Check{Checker: pipeline.Disk})
		if !plan.OK() || len(plan.Blocks) != 10 || plan.Blocks[9].Shape != core.ShapeLazy {
			b.Fatalf("the answer does not resolve as ten lazy blocks: %v", plan.Problems)
		}
	}
	check(b)
	b.ReportAllocs()
	for b.Loop() {
		check(b)
	}
}

// BenchmarkBlockChunks validates W8's 50-block answers as a language
// server does on the chunks that complete a block, and on no other: each
// prefix of the answer that ends with a block's closing fence, parsed
// through one ParseMemo and validated again from the plan before, with
// the syntax check, a session's tree cache made whole files (WholeFiles)
// and fresh for each answer. A chunk that completes no block validates
// nothing again (the memo keeps every block), so this is where the two
// formats' costs part: the lazy block's outlines, resolutions and
// stability check against the SEARCH/REPLACE block's match.
func BenchmarkBlockChunks(b *testing.B) {
	for _, c := range []struct {
		name string
		w    *gen.Workload
	}{{"lazy50", gen.LazyAnswer(50)}, {"lazytwin50", gen.LazyTwinAnswer(50)}} {
		b.Run(c.name, func(b *testing.B) {
			var ends []int
			for at := 0; ; {
				i := strings.Index(c.w.Patch[at:], "\n```\n")
				if i < 0 {
					break
				}
				at += i + len("\n```\n")
				ends = append(ends, at)
			}
			if len(ends) != 50 {
				b.Fatalf("the answer has %d closing fences, not 50", len(ends))
			}
			fsys := core.MapFS(c.w.Files)
			b.ReportAllocs()
			for b.Loop() {
				trees := treesitter.NewCache(64)
				trees.WholeFiles = true
				memo := &core.ParseMemo{}
				var plan *core.Plan
				for _, at := range ends {
					patch := core.Parse(c.w.Patch[:at], core.ParseOptions{Snippets: true, Streaming: true, Memo: memo})
					plan = pipeline.Validate(patch, fsys, pipeline.Check{Options: core.Options{Applied: true}, Checker: trees,
						Syntax: pipeline.SyntaxIfOK, Revalidate: true, Previous: plan})
				}
				if !plan.OK() || plan.BlockCount() != 50 {
					b.Fatalf("the answer does not validate as 50 blocks: %v", plan.Problems)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ends))/1e3, "us/block")
		})
	}
}
