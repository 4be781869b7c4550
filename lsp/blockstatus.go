package lsp

import (
	"fmt"

	"github.com/fsrb/fsrb/core"
)

// status is a block's outcome in a few words, shared by code lens, hover
// and symbols: "applies at src/x.go:12", "not found", "3 matches".
func (a *analysis) status(n int) string {
	res, ok := a.result(n)
	if !ok {
		return ""
	}
	if res.Status == statusSkipped {
		return "skipped"
	}
	if res.Status == core.StatusApplied {
		b := a.patch.Blocks[n-1]
		switch {
		case res.Line == 0:
			return "applied: " + b.Path + " is gone"
		case b.Op == core.OpCreate:
			return "applied: " + b.Path + " created"
		}
		return fmt.Sprintf("applied at %s:%d", b.Path, res.Line)
	}
	if res.Status == core.StatusApplies {
		b := a.patch.Blocks[n-1]
		switch {
		case res.Rung == "create":
			return "creates " + b.Path
		case res.Shape != "":
			// A chat snippet's shape is how it was placed, by rule:
			// nothing fuzzy about it.
			return fmt.Sprintf("applies at %s:%d (%s)", b.Path, res.Line, res.Shape)
		case res.Rung != "exact" && res.Rung != "":
			return fmt.Sprintf("applies at %s:%d (fuzzy: %s)", b.Path, res.Line, res.Rung)
		}
		return fmt.Sprintf("applies at %s:%d", b.Path, res.Line)
	}
	for _, p := range a.problems(n) {
		if p.Severity != core.SeverityError {
			continue
		}
		switch p.Kind {
		case core.KindNotFound:
			if len(p.Candidates) > 0 {
				c := p.Candidates[0]
				return fmt.Sprintf("not found (closest: line %d, %.0f%% similar)", c.Line, c.Similarity*100)
			}
			return "not found"
		case core.KindAmbiguous:
			return fmt.Sprintf("%d matches", len(p.Candidates))
		case core.KindIncomplete:
			return "incomplete"
		case kindDiskConflict:
			return "changed on disk, buffer unsaved"
		}
		return string(p.Kind)
	}
	return "does not apply"
}
