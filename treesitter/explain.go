package treesitter

import (
	"bytes"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/fsrb/fsrb/core"
)

// Explain implements core.Explainer: for each place of an ambiguous block,
// the innermost enclosing definition and the widened block that matches
// there only. pipeline.Validate plugs it into core.Options (a front end's
// cache: DefaultCache on disk, the language server's session cache); core
// knows no grammar.
func (c *Cache) Explain(path, text, search, replace string, occurrences []int) []core.Explanation {
	out := make([]core.Explanation, len(occurrences))
	for _, w := range c.Widen(path, text, search, replace, occurrences) {
		if w.Occurrence < 0 || w.Occurrence >= len(out) {
			continue
		}
		ex := core.Explanation{Where: Describe(w.Definitions), Search: w.Search, Replace: w.Replace, Anchor: w.Anchor}
		if n := len(w.Definitions); n > 0 {
			ex.Name = w.Definitions[n-1].Name
		}
		out[w.Occurrence] = ex
	}
	return out
}

// MaxSyntaxCheck is the largest file whose syntax check may parse the whole
// file. Parsing is slow next to the rest of a run (cgo; Python's grammar
// among the slow ones): a file of this size costs more than the rest of a
// CLI run (BenchmarkParseFull). Windows around the edits (window.go) are
// parsed whatever the size; a bigger file whose windows do not settle the
// question is not checked: the check is advice, never a gate.
const MaxSyntaxCheck = 256 << 10

// SyntaxProblems parses every file a valid plan changes before and after,
// and returns a warning for each syntax error the change adds near what it
// edited, laid at the door of the block whose new lines hold it (or are
// nearest to it). Files of no known language are skipped. Files are
// checked in parallel, one per CPU: each parse is a cgo call that holds
// its thread for its whole length.
func (c *Cache) SyntaxProblems(plan *core.Plan) core.Problems {
	perFile := make([]core.Problems, len(plan.Files))
	// A worker's slot carries the buffer it writes each file's new
	// content into (see wholeSyntaxErrors), sized once for the largest
	// file it will hold: grown file by file, it took fresh memory several
	// times its files' size (BenchmarkSyntaxProblemsW1). A file past
	// localMin is checked on local texts and needs the buffer only when
	// they cannot settle it (it grows then): sized for one, each
	// validation of a big file allocated memory it never wrote
	// (BenchmarkW2's bytes allocated).
	most := 0
	for i := range plan.Files {
		if n := plan.Files[i].NewLen(); n <= localMin {
			most = max(most, n)
		}
	}
	slots := make(chan *bytes.Buffer, runtime.GOMAXPROCS(0))
	for range cap(slots) {
		slots <- bytes.NewBuffer(make([]byte, 0, most))
	}
	var wg sync.WaitGroup
	for i, fc := range plan.Files {
		if fc.Action == core.ActionDelete || len(fc.Lines) == 0 {
			continue
		}
		lang := languageOf(&plan.Files[i])
		if lang == nil {
			continue
		}
		wg.Add(1)
		buf := <-slots
		go func() {
			defer func() { slots <- buf; wg.Done() }()
			perFile[i] = c.fileSyntaxProblems(plan, &plan.Files[i], lang, buf)
		}()
	}
	wg.Wait()
	var out core.Problems
	for _, p := range perFile {
		out = append(out, p...)
	}
	return out
}

// shebangHead is how much of a file languageOf reads for its "#!" line
// before it falls back to the whole content.
const shebangHead = 4096

// languageOf is LanguageFor(fc.Path, fc.Bytes()) reading only the new
// content's first line: a file no grammar claims is never built, which a
// dry run on a big file of no grammar would otherwise do here (make
// bench, W6).
func languageOf(fc *core.FileChange) *Language {
	if l := LanguageFor(fc.Path, nil); l != nil {
		return l
	}
	head := fc.Head(shebangHead)
	if len(head) == shebangHead && bytes.IndexByte(head, '\n') < 0 {
		head = fc.Bytes() // a first line longer than the head: read it all
	}
	return LanguageFor(fc.Path, head)
}

// fileSyntaxProblems is SyntaxProblems for one file; buf is scratch
// memory for its new content (nil: the content is built).
func (c *Cache) fileSyntaxProblems(plan *core.Plan, fc *core.FileChange, lang *Language, buf *bytes.Buffer) core.Problems {
	var out core.Problems
	errs, ok := c.knownSyntaxErrors(fc)
	if !ok {
		if errs, ok = c.localSyntaxErrors(fc, lang); !ok {
			errs = c.wholeSyntaxErrors(fc, lang, buf)
		}
		c.rememberSyntaxErrors(fc, errs)
	}
	for _, e := range errs {
		block := nearestBlock(fc.Lines, e.Line)
		detail := ""
		if e.Missing != "" {
			detail = fmt.Sprintf(" (missing %q)", e.Missing)
		}
		p := core.Problem{
			Kind: core.KindSyntax, Severity: core.SeverityWarning, Block: block, Path: fc.Display, Line: e.Line,
			Message: fmt.Sprintf("applying block #%d leaves a syntax error in %s:%d%s", block, fc.Display, e.Line, detail),
			Hint:    "check the block's REPLACE text: a bracket, quote or keyword may be missing",
		}
		if b := plan.Patch.Block(block); b != nil {
			p.Span = b.Span
		}
		out = append(out, p)
	}
	return out
}

// wholeSyntaxErrors is the syntax check of fc on its whole old and new
// content. With buf, the new content is written into it rather than built
// (and kept) by fc.Bytes: a worker's buffer serves file after file, where
// each file's own copy was fresh memory, a page fault every 4 KB (make
// bench, W1: the dry run's faults). Nothing the check returns or caches
// points into it (Cache.Parse keeps a copy).
func (c *Cache) wholeSyntaxErrors(fc *core.FileChange, lang *Language, buf *bytes.Buffer) []SyntaxError {
	var after []byte
	if buf == nil {
		after = fc.Bytes()
	} else {
		buf.Reset()
		buf.Grow(fc.NewLen())  // once, not by doubling from 64 bytes
		_, _ = fc.WriteTo(buf) // a bytes.Buffer's Write never fails
		after = buf.Bytes()
	}
	return c.syntaxErrors(lang, fc.Path, fc.Old, after, editRanges(fc.Lines, after, 0))
}

// editRanges returns the byte ranges in text of the blocks' new lines,
// text being the new content from its line first on.
func editRanges(lines []core.BlockLines, text []byte, first int) [][2]int {
	var want []int // 0-based lines of text whose start offsets are needed
	for _, l := range lines {
		want = append(want, l.Line-1-first, l.EndLine-first)
	}
	at := lineOffsets(text, want)
	ranges := make([][2]int, 0, len(lines))
	for _, l := range lines {
		start := at[l.Line-1-first]
		ranges = append(ranges, [2]int{start, max(start, at[l.EndLine-first])})
	}
	return ranges
}

// lineOffsets returns the start offset of each wanted 0-based line of text
// (len(text) for lines past its end), in one scan that stops at the last
// one: a line index of a 100 MB file would cost 12 MB and a copy.
func lineOffsets(text []byte, lines []int) map[int]int {
	sorted := append([]int(nil), lines...)
	sort.Ints(sorted)
	out := make(map[int]int, len(sorted))
	line, off := 0, 0
	for _, want := range sorted {
		// Whole chunks are skipped by their newline count (SIMD), not
		// line by line: one IndexByte call a line is slow over the many
		// lines above an edit near the end of a big file (make bench, W2).
		for line < want && len(text)-off > lineChunk {
			n := bytes.Count(text[off:off+lineChunk], []byte{'\n'})
			if line+n >= want {
				break
			}
			off, line = off+lineChunk, line+n
		}
		for line < want && off < len(text) {
			i := bytes.IndexByte(text[off:], '\n')
			if i < 0 {
				off = len(text)
				break
			}
			off += i + 1
			line++
		}
		if line < want {
			off = len(text)
		}
		out[want] = off
	}
	return out
}

// lineChunk is the stride of lineOffsets' skipping.
const lineChunk = 4096

// nearestBlock returns the block whose new lines hold line, or the closest.
func nearestBlock(lines []core.BlockLines, line int) int {
	best, dist := 0, -1
	for _, l := range lines {
		d := 0
		switch {
		case line < l.Line:
			d = l.Line - line
		case line > l.EndLine:
			d = line - max(l.EndLine, l.Line)
		}
		if dist < 0 || d < dist {
			best, dist = l.Block, d
		}
	}
	return best
}
