package core

import "strings"

// maxOccurrences bounds how many places of an ambiguous block are listed.
const maxOccurrences = 50

// occurrences returns the offsets in text (LF, ending with "\n") where
// search (LF, whole lines) matches whole, consecutive lines. Overlapping
// places count: "a\na\n" occurs twice in "a\na\na\n" (DESIGN.md "Fine print").
func occurrences(text, search string, limit int) []int {
	var out []int
	for from := 0; from <= len(text)-len(search); {
		i := strings.Index(text[from:], search)
		if i < 0 {
			break
		}
		at := from + i
		if at == 0 || text[at-1] == '\n' {
			out = append(out, at)
			if len(out) >= limit {
				break
			}
		}
		from = at + 1
	}
	return out
}

// partialLine looks for search inside a line when it matches no whole
// lines: the offset of the only place it occurs, or -1. Strict mode reports
// that line instead of a bare "not found".
func partialLine(text, search string) int {
	s := strings.TrimSuffix(search, "\n")
	if strings.TrimSpace(s) == "" {
		return -1
	}
	i := strings.Index(text, s)
	if i < 0 || strings.Contains(text[i+1:], s) {
		return -1
	}
	return i
}
