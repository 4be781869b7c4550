package report

import (
	"io"
	"strconv"
	"strings"
)

// git diff's colours (color.diff.meta, frag, old, new).
const (
	cyan     = "\x1b[36m"
	gitReset = "\x1b[m"
)

// Diff writes a unified diff (--diff), coloured as git diff colours one
// when color is set: file headers bold, hunk headers cyan, removed lines
// red, added lines green, context and "\ No newline" lines plain. A line
// is told by where it stands, not only by its first byte: inside a hunk,
// a removed "-- x" reads "--- x" and is still a removed line.
func Diff(w io.Writer, diff string, color bool) {
	if !color {
		io.WriteString(w, diff)
		return
	}
	var b strings.Builder
	removed, added := 0, 0 // lines of the current hunk still to come
	for line := range strings.Lines(diff) {
		text := strings.TrimSuffix(line, "\n")
		paint := ""
		switch {
		case removed > 0 || added > 0:
			switch text[:min(1, len(text))] {
			case "-":
				removed, paint = removed-1, red
			case "+":
				added, paint = added-1, green
			case "\\":
			default: // context; a line emptied by an editor counts as one
				removed, added = removed-1, added-1
			}
		case strings.HasPrefix(text, `\`): // "\ No newline at end of file" after a hunk's last line
		case strings.HasPrefix(text, "@@"):
			removed, added = hunkLengths(text)
			paint = cyan
		default: // ---, +++ and whatever else stands between files
			paint = bold
		}
		if paint == "" {
			b.WriteString(line)
			continue
		}
		b.WriteString(paint + text + gitReset + line[len(text):])
	}
	io.WriteString(w, b.String())
}

// hunkLengths reads the line counts of "@@ -a,b +c,d @@" (a count left
// out is 1).
func hunkLengths(header string) (removed, added int) {
	fields := strings.Fields(header)
	count := func(i int, sign string) int {
		if i >= len(fields) || !strings.HasPrefix(fields[i], sign) {
			return 0
		}
		_, n, found := strings.Cut(fields[i], ",")
		if !found {
			return 1
		}
		c, _ := strconv.Atoi(n)
		return c
	}
	return count(1, "-"), count(2, "+")
}
