package core

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The values of --format (and of the language server's "format" setting).
const (
	FormatAuto          = "auto"
	FormatSearchReplace = "search-replace" // dialects 1-5, with hashline blocks (8) recognized
	FormatApplyPatch    = "apply-patch"    // dialect 6
	FormatUdiff         = "udiff"          // dialect 7
	FormatCline         = "cline"          // dialects 1-5 (Cline's markers are read in every mode)
	FormatHashline      = "hashline"       // dialects 1-5, every SEARCH written N:hhhh|text
	FormatToolCalls     = "tool-calls"     // agents' edit tool calls as JSON (toolcalls.go)
)

// Formats lists the accepted --format values.
var Formats = []string{FormatAuto, FormatSearchReplace, FormatApplyPatch, FormatUdiff, FormatCline, FormatHashline, FormatToolCalls}

// ValidFormat reports whether name is one of Formats ("" counts as auto).
func ValidFormat(name string) bool {
	if name == "" {
		return true
	}
	for _, f := range Formats {
		if f == name {
			return true
		}
	}
	return false
}

// chooseFormat returns the forced format, or the detected one.
func chooseFormat(lines []line, forced string, run *memoRun) Format {
	switch forced {
	case "", FormatAuto:
		f, decided := detectFormat(lines, run.undecidedLines(lines))
		run.decided(decided)
		return f
	case FormatApplyPatch, FormatUdiff:
		return Format{Name: forced, Forced: true, Reason: "forced by --format " + forced}
	}
	return Format{Name: FormatSearchReplace, Forced: true, Reason: "forced by --format " + forced}
}

// detectFormat tells which whole-patch format a text is written in. The
// first line that only one format has decides:
//
//   - "*** Begin Patch", or an "*** Update File:" / "*** Add File:" /
//     "*** Delete File:" line: apply-patch (dialect 6);
//   - a SEARCH or NEW_FILE marker (dialects 1, 3, 5): search-replace;
//   - a "--- path" line directly followed by a "+++ path" line, or a
//     "diff --git" line: udiff (dialect 7).
//
// Without any of them the text is read as search-replace (which then
// reports that it holds no block). Reason says which line decided, so
// that reports can explain the choice, and decided whether a line did.
// The lines before from are known to decide nothing.
func detectFormat(lines []line, from int) (f Format, decided bool) {
	for i := from; i < len(lines); i++ {
		if f, ok := formatOfLine(lines, i); ok {
			return f, true
		}
	}
	return Format{Name: FormatSearchReplace, Reason: "no marker of another dialect found"}, false
}

// formatOfLine tells whether line i is one that only one format has.
func formatOfLine(lines []line, i int) (Format, bool) {
	l := lines[i]
	// Every line below begins with "*" (apply-patch), a marker's byte or
	// "d" (diff --git): prose, most of a chat answer, is turned away
	// before a trim and five comparisons (W8 of make bench).
	if c, ok := leadByte(l.text); ok && c != '*' && c != 'd' && !markerByte(c) {
		return Format{}, false
	} else if ok && c == 'd' && !strings.HasPrefix(l.text, "diff --git ") {
		return Format{}, false // "def", "do", "defer": code of a chat answer's snippets
	}
	t := strings.TrimSpace(l.text)
	switch {
	case t == apBegin || apSectionHeader(t) != "":
		return Format{Name: FormatApplyPatch, Reason: fmt.Sprintf("line %d is %q", i+1, clip(t))}, true
	case markerOf(t) == markSearch || markerOf(t) == markNewFileOpen:
		// Every SEARCH/REPLACE patch is read as one through this line:
		// fmt.Sprintf was a visible share of a one-block Parse
		// (BenchmarkW5).
		return Format{Name: FormatSearchReplace, Reason: "line " + strconv.Itoa(i+1) + " is the marker " + strconv.Quote(clip(t))}, true
	case strings.HasPrefix(l.text, "diff --git "):
		return Format{Name: FormatUdiff, Reason: fmt.Sprintf("line %d is %q", i+1, clip(t))}, true
	case strings.HasPrefix(l.text, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1].text, "+++ "):
		return Format{Name: FormatUdiff, Reason: fmt.Sprintf("lines %d-%d are ---/+++ file headers", i+1, i+2)}, true
	}
	return Format{}, false
}

// mixedFormats finds, outside every block the patch was read into, a line
// that only another format has: a chat answer holding SEARCH/REPLACE
// blocks and a diff. Read in the detected format, the other part would be
// dropped without a word under a success banner; it is an error instead
// (with --format, the user chose, and the rest is left alone).
func mixedFormats(lines []line, patch *Patch) *Problem {
	spans := make([]Span, 0, len(patch.Blocks))
	for _, b := range patch.Blocks {
		spans = append(spans, b.Span)
	}
	slices.SortFunc(spans, func(a, b Span) int { return cmp.Compare(a.Start, b.Start) })
	k := 0
	for i, l := range lines {
		for k < len(spans) && spans[k].End < l.start {
			k++
		}
		if k < len(spans) && spans[k].Start <= l.start && l.start <= spans[k].End {
			continue
		}
		f, ok := formatOfLine(lines, i)
		if !ok || f.Name == patch.Format.Name {
			continue
		}
		return &Problem{
			Kind: KindMalformed, Severity: SeverityError, Span: Span{l.start, l.end},
			Message: fmt.Sprintf("the patch mixes formats: it was read as %s (%s), but line %d begins %s, which would be dropped",
				patch.Format.Name, patch.Format.Reason, i+1, formatNoun(f.Name)),
			Hint: "apply each part on its own (split the answer), or pass --format to read one format and leave the rest",
		}
	}
	return nil
}

func formatNoun(name string) string {
	switch name {
	case FormatApplyPatch:
		return "an apply-patch (*** Begin Patch)"
	case FormatUdiff:
		return "a unified diff"
	}
	return "a SEARCH/REPLACE block"
}

// clip shortens a line quoted in a message.
func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
