package pipeline_test

import (
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// TestLazyWorkloadApplies: W8's lazy answer (bench/gen.LazyAnswer)
// resolves whole, block for block, so that the benchmark streams an
// answer that applies.
func TestLazyWorkloadApplies(t *testing.T) {
	for _, n := range []int{50, 500} {
		w := gen.LazyAnswer(n)
		patch := core.Parse(w.Patch, core.ParseOptions{Snippets: true})
		if len(patch.Blocks) != n {
			t.Fatalf("%d blocks, want %d", len(patch.Blocks), n)
		}
		plan := pipeline.Validate(patch, core.MapFS(w.Files), pipeline.Check{Checker: pipeline.Disk})
		if !plan.OK() {
			t.Fatalf("%d: %v", n, plan.Problems[:min(3, len(plan.Problems))])
		}
		t.Logf("%d blocks, %d bytes, %d files", n, len(w.Patch), len(w.Files))
	}
}
