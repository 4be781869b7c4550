package report

import (
	"encoding/json"
	"io"

	"github.com/fsrb/fsrb/core"
)

// Report is the --json object: the schema of the CLI contract, plus
// "severity", "hint", "snippet" and the candidates' "diff", and "notes" for
// what is not an error. The MCP server's tools answer with it as their
// structured content.
type Report struct {
	OK      bool       `json:"ok"`
	Format  jsonFormat `json:"format"`
	DryRun  bool       `json:"dry_run,omitempty"`
	Partial bool       `json:"partial,omitempty"`
	Revert  bool       `json:"revert,omitempty"`
	Written bool       `json:"written"`
	Files   []jsonFile `json:"files"`
	Skipped []int      `json:"skipped,omitempty"`
	Applied []int      `json:"applied,omitempty"` // blocks found already applied, left as they stand
	// Snippets: how each chat snippet (a code block naming its file) was
	// read, and what each marker of a lazy one keeps of its file.
	Snippets []jsonSnippet `json:"snippets,omitempty"`
	Errors   []ProblemJSON `json:"errors"`
	Notes    []ProblemJSON `json:"notes"`
}

// jsonFormat says how the patch text was read (docs/ARCHITECTURE.md
// "Dialects"):
// the dialect family, whether --format forced it, and why it was chosen.
type jsonFormat struct {
	Name   string `json:"name"`
	Forced bool   `json:"forced"`
	Reason string `json:"reason"`
}

func formatOf(p *core.Patch) jsonFormat {
	return jsonFormat{Name: p.Format.Name, Forced: p.Format.Forced, Reason: p.Format.Reason}
}

type jsonFile struct {
	Path   string `json:"path"`
	Action string `json:"action"`
	Blocks []int  `json:"blocks"`
	// MovedFrom: the file moved here by an apply-patch "*** Move to:".
	MovedFrom string `json:"moved_from,omitempty"`
	Diff      string `json:"diff,omitempty"` // with --diff: the file's unified diff
}

// jsonSnippet is one chat snippet: its shape ("whole-file", "definition",
// "lazy", "line-range"; "" when it could not be placed) and, for a lazy
// one, the file lines each omission marker keeps.
type jsonSnippet struct {
	Block int        `json:"block"`
	Path  string     `json:"path"`
	Shape string     `json:"shape"`
	Kept  []jsonKept `json:"kept,omitempty"`
}

// jsonKept: marker is the marker's line in the block's code; from and to
// the file lines it keeps (to < from: none), all 1-based.
type jsonKept struct {
	Marker int `json:"marker"`
	From   int `json:"from"`
	To     int `json:"to"`
}

// ProblemJSON is a problem in the --json report ("errors" and "notes").
type ProblemJSON struct {
	Path       string          `json:"path"`
	Block      int             `json:"block"`
	Kind       string          `json:"kind"`
	Severity   string          `json:"severity"`
	Message    string          `json:"message"`
	Hint       string          `json:"hint,omitempty"`
	Snippet    string          `json:"snippet,omitempty"`
	Line       int             `json:"line"`
	Candidates []jsonCandidate `json:"candidates"`
}

type jsonCandidate struct {
	Line       int     `json:"line"`
	EndLine    int     `json:"end_line"`
	Context    string  `json:"context"`
	Similarity float64 `json:"similarity"`
	Diff       string  `json:"diff,omitempty"`
	// For the places of an ambiguous block (tree-sitter): the enclosing
	// definition, the widened block that targets only this place, and an
	// apply-patch "@@" anchor.
	Where   string `json:"where,omitempty"`
	Search  string `json:"search,omitempty"`
	Replace string `json:"replace,omitempty"`
	Anchor  string `json:"anchor,omitempty"`
}

// JSON writes the outcome as one JSON object.
func JSON(w io.Writer, o Outcome) error {
	return encode(w, Build(o))
}

// encode writes v indented, with "<", ">" and "&" as they are: Go's
// default HTML escaping would print every SEARCH marker as \u003c.
func encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Build returns the outcome's --json object.
func Build(o Outcome) Report {
	p := o.Plan
	r := Report{
		OK:      o.OK(),
		Format:  formatOf(p.Patch),
		DryRun:  o.Mode == ModeDryRun,
		Partial: o.Mode == ModePartial,
		Revert:  o.Revert,
		Written: o.Written,
		Files:   []jsonFile{},
		Errors:  []ProblemJSON{},
		Notes:   []ProblemJSON{},
	}
	if o.Written || o.Mode == ModeDryRun {
		for _, f := range p.Files {
			r.Files = append(r.Files, jsonFile{Path: f.Display, Action: string(f.Action), Blocks: f.Blocks, MovedFrom: f.MovedFrom, Diff: o.Diffs[f.Display]})
		}
	}
	for i, b := range p.Blocks {
		if i < len(p.Patch.Blocks) && p.Patch.Blocks[i].Op == core.OpSnippet {
			sn := jsonSnippet{Block: b.Block, Path: p.Patch.Blocks[i].Path, Shape: string(b.Shape)}
			for _, k := range b.Kept {
				sn.Kept = append(sn.Kept, jsonKept{Marker: k.Marker, From: k.From, To: k.To})
			}
			r.Snippets = append(r.Snippets, sn)
		}
		switch {
		case b.Status == core.StatusApplied:
			r.Applied = append(r.Applied, b.Block)
		case b.Status == core.StatusFailed && o.Mode == ModePartial:
			r.Skipped = append(r.Skipped, b.Block)
		}
	}
	for _, pr := range p.Problems {
		jp := Problem(pr)
		if pr.Severity == core.SeverityError {
			r.Errors = append(r.Errors, jp)
		} else {
			r.Notes = append(r.Notes, jp)
		}
	}
	return r
}

// Problem converts a problem into its JSON shape.
func Problem(pr core.Problem) ProblemJSON {
	jp := ProblemJSON{
		Path: pr.Path, Block: pr.Block, Kind: string(pr.Kind), Severity: pr.Severity.String(),
		Message: pr.Message, Hint: pr.Hint, Snippet: pr.Snippet, Line: pr.Line,
		Candidates: []jsonCandidate{},
	}
	for _, c := range pr.Candidates {
		jp.Candidates = append(jp.Candidates, jsonCandidate{
			Line: c.Line, EndLine: c.EndLine, Context: c.Context, Similarity: round2(c.Similarity), Diff: c.Diff,
			Where: c.Explanation.Where, Search: c.Explanation.Search, Replace: c.Explanation.Replace, Anchor: c.Explanation.Anchor,
		})
	}
	return jp
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }
