package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/fsrb/fsrb/core"
)

type jsonBlock struct {
	Number    int    `json:"number"`
	Path      string `json:"path"`
	Op        string `json:"op"`
	Search    string `json:"search"`
	Replace   string `json:"replace"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Dialect   string `json:"dialect"`

	// A chat snippet's (op "snippet"): the fence's language, the lines of
	// the file it replaces (CopilotChat), its omission marker lines
	// (0-based lines of replace).
	Lang      string `json:"lang,omitempty"`
	FromLine  int    `json:"from_line,omitempty"`
	ToLine    int    `json:"to_line,omitempty"`
	Omissions []int  `json:"omissions,omitempty"`
}

// Blocks lists what a patch holds (--blocks): every edit block with its
// number, file, operation and lines in the patch, then the shell command
// blocks (never run), then the problems of the text. Shell blocks carry
// number 0: block numbers count edit blocks only, as in every error.
func Blocks(w io.Writer, patch *core.Patch, asJSON bool) error {
	m := core.NewLines(patch.Text)
	lines := func(s core.Span) (int, int) {
		end := s.End
		if end > s.Start {
			end--
		}
		return m.Line(s.Start) + 1, m.Line(end) + 1
	}
	var out []jsonBlock
	for _, b := range patch.Blocks {
		start, end := lines(b.Span)
		out = append(out, jsonBlock{Number: b.Number, Path: b.Path, Op: string(b.Op), Search: b.Search,
			Replace: b.Replace, StartLine: start, EndLine: end, Dialect: string(b.Dialect),
			Lang: b.Lang, FromLine: b.FromLine, ToLine: b.ToLine, Omissions: b.Omissions})
	}
	for _, s := range patch.Shell {
		start, end := lines(s.Span)
		out = append(out, jsonBlock{Op: string(core.OpShell), Replace: s.Text, StartLine: start, EndLine: end, Dialect: s.Lang})
	}
	if asJSON {
		probs := []ProblemJSON{}
		for _, pr := range patch.Problems {
			probs = append(probs, Problem(pr))
		}
		if out == nil {
			out = []jsonBlock{}
		}
		return encode(w, struct {
			Format   jsonFormat    `json:"format"`
			Blocks   []jsonBlock   `json:"blocks"`
			Problems []ProblemJSON `json:"problems"`
		}{formatOf(patch), out, probs})
	}
	for _, b := range out {
		switch b.Op {
		case string(core.OpShell):
			fmt.Fprintf(w, "  -  shell    (%s) lines %d-%d, not run: %s\n", b.Dialect, b.StartLine, b.EndLine, firstLine(b.Replace))
		case string(core.OpSnippet):
			fmt.Fprintf(w, "#%-3d %-7s %s  lines %d-%d%s\n", b.Number, b.Op, b.Path, b.StartLine, b.EndLine, snippetNote(b))
		default:
			fmt.Fprintf(w, "#%-3d %-7s %s  lines %d-%d\n", b.Number, b.Op, b.Path, b.StartLine, b.EndLine)
		}
	}
	fmt.Fprintf(w, "\n%s, %s.\n", Plural(len(patch.Blocks), "edit block"), Plural(len(patch.Shell), "shell block"))
	for _, pr := range patch.Problems {
		fmt.Fprintf(w, "%s: %s\n", pr.Severity, pr.Error())
	}
	return nil
}

// snippetNote says what a snippet's listing line adds: the file lines it
// replaces, and how many omission markers it has.
func snippetNote(b jsonBlock) string {
	var parts []string
	if b.FromLine > 0 {
		parts = append(parts, fmt.Sprintf("replaces file lines %d-%d", b.FromLine, b.ToLine))
	}
	if n := len(b.Omissions); n > 0 {
		parts = append(parts, Plural(n, "omission marker"))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
