package pipeline_test

import (
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// TestLazyWorkloadApplies: W8's lazy answer (bench/gen.LazyAnswer)
// resolves whole, block for block, so that the benchmark streams an
// answer that applies; and its SEARCH/REPLACE twin (LazyTwinAnswer)
// writes the very same files, so that the two rows compare formats.
func TestLazyWorkloadApplies(t *testing.T) {
	for _, n := range []int{50, 500} {
		lazy := written(t, gen.LazyAnswer(n), n)
		twin := written(t, gen.LazyTwinAnswer(n), n)
		if len(lazy) != len(twin) {
			t.Fatalf("%d: the lazy answer changes %d files, its twin %d", n, len(lazy), len(twin))
		}
		for path, content := range lazy {
			if twin[path] != content {
				t.Errorf("%d: %s: the twin writes other content than the lazy answer", n, path)
			}
		}
	}
}

// written validates w's answer, which must hold n blocks that all apply,
// and returns the content it would write, by path.
func written(t *testing.T, w *gen.Workload, n int) map[string]string {
	t.Helper()
	patch := core.Parse(w.Patch, core.ParseOptions{Snippets: true})
	if len(patch.Blocks) != n {
		t.Fatalf("%s: %d blocks, want %d", w.Desc, len(patch.Blocks), n)
	}
	plan := pipeline.Validate(patch, core.MapFS(w.Files), pipeline.Check{Checker: pipeline.Disk})
	if !plan.OK() {
		t.Fatalf("%s: %v", w.Desc, plan.Problems[:min(3, len(plan.Problems))])
	}
	out := map[string]string{}
	for _, fc := range plan.Files {
		out[fc.Path] = string(fc.Bytes())
	}
	t.Logf("%s: %d bytes, %d files", w.Desc, len(w.Patch), len(w.Files))
	return out
}
