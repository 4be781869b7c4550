package core

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Dialect 8 (docs/ARCHITECTURE.md "Dialects"): hashline anchors. `fsrb read
// --hashlines FILE` prints every line of a file as
//
//	N:hhhh|text
//
// where N is the 1-based line number and hhhh the line's hash (HashLine).
// A SEARCH/REPLACE block (dialect 1 or 5) whose every SEARCH line is
// written that way is a hashline block: it is located by its line numbers
// (mapped through the blocks of the patch applied before it) and verified
// by the hashes; a hash that no longer matches is an error that shows the
// line as it is now. REPLACE is plain text (prefixes copied into every
// non-blank REPLACE line are stripped too).

// HashLine is the hash fsrb prints for one line: the low 16 bits of the
// 32-bit FNV-1a hash of the line's bytes — without its line ending (LF or
// CRLF) and, on the first line, without a UTF-8 BOM; indentation and
// trailing blanks count — as 4 lowercase hexadecimal digits.
func HashLine(text string) string {
	h := fnv.New32a()
	h.Write([]byte(text))
	return fmt.Sprintf("%04x", h.Sum32()&0xffff)
}

// Hashlines renders a file's content the way `fsrb read --hashlines`
// prints it: one "N:hhhh|text" line per line of the file.
func Hashlines(data []byte) string {
	d := loadDoc(data)
	var b strings.Builder
	n := 0
	for l := range strings.SplitSeq(strings.TrimSuffix(d.text(), "\n"), "\n") {
		if d.text() == "" {
			break
		}
		n++
		fmt.Fprintf(&b, "%d:%s|%s\n", n, HashLine(l), l)
	}
	return b.String()
}

// parseHashline splits "N:hhhh|text"; ok is false for any other line.
func parseHashline(l string) (ref HashRef, text string, ok bool) {
	colon := strings.IndexByte(l, ':')
	if colon < 1 || colon > 9 || len(l) < colon+6 || l[colon+5] != '|' {
		return HashRef{}, "", false
	}
	n, err := strconv.Atoi(l[:colon])
	if err != nil || n < 1 {
		return HashRef{}, "", false
	}
	h := l[colon+1 : colon+5]
	for i := 0; i < len(h); i++ {
		if !(h[i] >= '0' && h[i] <= '9' || h[i] >= 'a' && h[i] <= 'f') {
			return HashRef{}, "", false
		}
	}
	return HashRef{Line: n, Hash: h}, l[colon+6:], true
}

// hashlines turns the blocks of dialects 1 and 5 whose SEARCH lines all
// carry hashline prefixes into hashline blocks. --format search-replace
// and cline leave SEARCH as written (the fuzzy ladder may still strip
// copied prefixes); --format hashline requires the form in every block.
func hashlines(p *Patch, format string) {
	if format == FormatSearchReplace || format == FormatCline {
		return
	}
	for i := range p.Blocks {
		b := &p.Blocks[i]
		if b.Incomplete || b.Op != OpModify || b.Search == "" {
			continue
		}
		first, _, _ := strings.Cut(b.Search, "\n")
		if _, _, ok := parseHashline(first); !ok && format != FormatHashline {
			continue // not hashlines: the split below is for nothing
		}
		lines := strings.Split(strings.TrimSuffix(b.Search, "\n"), "\n")
		refs := make([]HashRef, 0, len(lines))
		var texts strings.Builder
		bad := -1
		for k, l := range lines {
			ref, text, ok := parseHashline(l)
			if !ok {
				bad = k
				break
			}
			refs = append(refs, ref)
			texts.WriteString(text + "\n")
		}
		if bad >= 0 {
			if format == FormatHashline {
				p.Problems = append(p.Problems, Problem{
					Kind: KindMalformed, Block: b.Number, Path: b.Path, Span: b.SearchBody,
					Message: fmt.Sprintf("SEARCH line %d %q is not written N:hhhh|text (read as hashline, forced by --format)", bad+1, clip(lines[bad])),
					Hint:    "copy the SEARCH lines from the output of fsrb read --hashlines " + b.Path + ", prefixes and all",
				})
			}
			continue
		}
		b.Dialect = DialectHashline
		b.Hashes = refs
		b.Search = texts.String()
		b.Replace = stripHashlines(b.Replace)
	}
}

// stripHashlines removes hashline prefixes from REPLACE when every
// non-blank line carries one (a model copied them from the SEARCH side).
func stripHashlines(s string) string {
	if s == "" {
		return s
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	var out strings.Builder
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			out.WriteString(l + "\n")
			continue
		}
		_, text, ok := parseHashline(l)
		if !ok {
			return s
		}
		out.WriteString(text + "\n")
	}
	return out.String()
}
