package core

// Explainer describes each place of an ambiguous block: text is the file's
// LF content as the block saw it, occurrences the byte offsets of the
// places (whole lines) in it. It returns one Explanation per occurrence, in
// order, or nil.
type Explainer func(path, text, search, replace string, occurrences []int) []Explanation

// Explanation tells one place of an ambiguous block apart from the others.
type Explanation struct {
	Where string // the enclosing definition, e.g. "func (s *Server) Start"; "" at top level
	Name  string // its short, qualified name for titles, e.g. "Server.Start"
	// Search and Replace are the block widened with context lines so that it
	// matches this place only ("" when no widening makes it unique).
	Search, Replace string
	Anchor          string // the signature line to use as an apply-patch "@@" anchor
}

// explain adds the Explainer's findings to an ambiguous block's candidates.
func (v *validator) explain(p *Problem, b *Block, d *doc, occ []int) {
	if v.opt.Explain == nil || len(occ) != len(p.Candidates) {
		return
	}
	ex := v.opt.Explain(b.Path, d.text(), b.Search, b.Replace, occ)
	for i := range p.Candidates {
		if i < len(ex) {
			p.Candidates[i].Explanation = ex[i]
		}
	}
}
