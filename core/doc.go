package core

import (
	"bytes"
	"strings"
	"unsafe"
)

const bom = "\uFEFF"

// doc is a target file as the matcher sees it: LF text that always ends
// with a newline, plus what it takes to give back the file's own bytes — its
// BOM, whether it lacked a final newline, and the ending of every line —
// so that bytes outside replaced ranges never change (DESIGN.md "Matching").
type doc struct {
	text       string // LF, BOM removed; ends with "\n" unless empty
	bom        bool
	noFinalEOL bool   // the file did not end with a newline: keep none
	crlf       []bool // per line of text, whether it ended in CRLF; nil if no line did
	newCRLF    bool   // the file's most frequent line ending is CRLF (new text takes it)
}

func loadDoc(data []byte) *doc {
	d := &doc{}
	if bytes.HasPrefix(data, []byte(bom)) {
		d.bom = true
		data = data[len(bom):]
	}
	// No copy: the bytes read belong to the plan (FileChange.Old) and
	// nothing writes to them after reading; a copy of a 100 MB file per
	// run is what this saves (issue 9).
	s := unsafe.String(unsafe.SliceData(data), len(data))
	if crlfs := strings.Count(s, "\r\n"); crlfs > 0 {
		lfs := strings.Count(s, "\n") - crlfs
		d.newCRLF = crlfs > lfs || crlfs == lfs && strings.Index(s, "\r\n") < strings.Index(s, "\n")
		d.crlf = make([]bool, 0, crlfs+lfs)
		for _, l := range splitLines(s) {
			d.crlf = append(d.crlf, l.end < l.next-1)
		}
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	// The final newline is added after the endings are read, so that a
	// last line ending in a lone "\r" keeps it as content.
	if s != "" && !strings.HasSuffix(s, "\n") {
		d.noFinalEOL = true
		s += "\n"
	}
	d.text = s
	return d
}

// lineOf returns the zero-based line of an offset in d.text.
func (d *doc) lineOf(offset int) int { return strings.Count(d.text[:offset], "\n") }

// splice replaces the whole lines [start, end) of d.text (offsets at line
// starts) by repl (LF, whole lines). New lines take the file's line ending.
func (d *doc) splice(start, end int, repl string) {
	if d.crlf != nil {
		first := d.lineOf(start)
		removed := strings.Count(d.text[start:end], "\n")
		added := strings.Count(repl, "\n")
		flags := make([]bool, 0, len(d.crlf)-removed+added)
		flags = append(flags, d.crlf[:first]...)
		for range added {
			flags = append(flags, d.newCRLF)
		}
		d.crlf = append(flags, d.crlf[first+removed:]...)
	}
	d.text = d.text[:start] + repl + d.text[end:]
}

// setText replaces the whole content (a create), with the file's endings.
func (d *doc) setText(s string) {
	d.splice(0, len(d.text), s)
	if s != "" {
		d.noFinalEOL = false
	}
}

// empty reports whether the file would hold nothing (a lone BOM counts as
// nothing; DESIGN.md "Fine print").
func (d *doc) empty() bool { return d.text == "" }

// bytes gives the file's content back in its own encoding.
func (d *doc) bytes() []byte {
	if !d.bom && d.crlf == nil {
		// The common case needs no copy: the text is the file's bytes.
		// FileChange.New is read-only, like every string's bytes.
		out := d.text
		if d.noFinalEOL {
			out = strings.TrimSuffix(out, "\n")
		}
		return unsafe.Slice(unsafe.StringData(out), len(out))
	}
	var b bytes.Buffer
	b.Grow(len(d.text) + len(d.crlf) + len(bom))
	if d.bom {
		b.WriteString(bom)
	}
	if d.crlf == nil {
		b.WriteString(d.text)
	} else {
		i := 0
		for start := 0; start < len(d.text); i++ {
			n := strings.IndexByte(d.text[start:], '\n')
			b.WriteString(d.text[start : start+n])
			if i < len(d.crlf) && d.crlf[i] {
				b.WriteByte('\r')
			}
			b.WriteByte('\n')
			start += n + 1
		}
	}
	out := b.Bytes()
	if d.noFinalEOL {
		out = bytes.TrimSuffix(out, []byte("\n"))
		if n := len(d.crlf); n > 0 && d.crlf[n-1] {
			out = bytes.TrimSuffix(out, []byte("\r"))
		}
	}
	return out
}
