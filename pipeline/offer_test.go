package pipeline_test

import (
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// TestOfferLeavesStabilityToTheWrite: a snippet with no stable place
// (the answer FuzzSnippetOutline found written twice, on broken Go) is
// refused by the validation that writes; validated only to offer it
// (core.Options.Offer, the language server's "Apply" lens), it is not
// checked for stability, and the plan holds nothing to write.
func TestOfferLeavesStabilityToTheWrite(t *testing.T) {
	answer := "```go x.go\n//eXisting Code\nfunc()A(A{\n0}\n```\n"
	files := core.MapFS{"x.go": "func()A(A{\n0"}
	validate := func(offer bool) *core.Plan {
		patch := core.Parse(answer, core.ParseOptions{Snippets: true})
		return pipeline.Validate(patch, files, pipeline.Check{Options: core.Options{Applied: true, Offer: offer}, Checker: pipeline.Disk})
	}
	write := validate(false)
	if write.OK() || len(write.Problems) == 0 || write.Problems[0].Kind != core.KindAmbiguous {
		t.Fatalf("the validation that writes: OK %v, problems %v; want the block refused as having no stable place", write.OK(), write.Problems)
	}
	offer := validate(true)
	if !offer.OK() || offer.Blocks[0].Status != core.StatusApplies {
		t.Fatalf("the offer: OK %v, problems %v; want the block offered", offer.OK(), offer.Problems)
	}
	if len(offer.Files) != 0 {
		t.Fatalf("the offer's plan holds %d file changes; want none, so that it cannot be written", len(offer.Files))
	}
}
