package core

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
)

// The benchmarks of issue 3 (W1-W5), run in-process through Validate on an
// in-memory FS. Files are generated, deterministic, Python-like code with
// 4-space indentation, nested blocks, blank lines and repeated short lines.
//
//	go test ./core -run '^$' -bench 'W[1-5]' -benchmem

// memFS is an in-memory FS: names are the real paths.
type memFS map[string][]byte

func (m memFS) ReadFile(name string) ([]byte, error) {
	if data, ok := m[name]; ok {
		return data, nil
	}
	return nil, fs.ErrNotExist
}

func (m memFS) RealPath(name string) (string, error) { return name, nil }

// benchRun validates patch against files, checks the outcome once, then
// measures three things: "validate", the whole of Validate (what a caller
// pays), "locate", the matching alone (see benchLocate), "parse", Parse
// alone, and "parse+validate", both.
func benchRun(b *testing.B, files memFS, patch string, opt Options, check func(*testing.B, *Plan)) {
	b.Helper()
	p := Parse(patch, ParseOptions{})
	if p.Problems.HasErrors() {
		b.Fatalf("patch: %v", p.Problems)
	}
	check(b, Validate(p, files, opt))
	b.Run("validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Validate(p, files, opt)
		}
	})
	b.Run("locate", func(b *testing.B) { benchLocate(b, files, p, opt) })
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Parse(patch, ParseOptions{})
		}
	})
	// "parse+validate" is what the peers comparison of issue 11 times:
	// core.Parse and core.Validate on files in memory, no tree-sitter.
	b.Run("parse+validate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Validate(Parse(patch, ParseOptions{}), files, opt)
		}
	})
}

func wantOK(b *testing.B, plan *Plan) {
	b.Helper()
	if !plan.OK() {
		b.Fatalf("plan failed: %v", plan.Problems)
	}
}

// W1: 200 blocks over 20 files of 500 lines (10 exact blocks per file).
func BenchmarkW1(b *testing.B) {
	files := memFS{}
	var patch strings.Builder
	for f := range 20 {
		name := fmt.Sprintf("pkg/mod%02d.py", f)
		lines := gen.Code(500, int64(100+f))
		files[name] = []byte(gen.JoinLines(lines))
		at := 0
		for range 10 {
			s := gen.BlockAt(lines, at)
			search := gen.JoinLines(lines[s : s+4])
			replace := gen.JoinLines(append([]string{lines[s] + "  # changed"}, lines[s+1:s+4]...))
			patch.WriteString(gen.SRBlock(name, search, replace))
			at = s + 40
		}
	}
	benchRun(b, files, patch.String(), Options{}, func(b *testing.B, plan *Plan) {
		wantOK(b, plan)
		if plan.BlockCount() != 200 {
			b.Fatalf("%d blocks apply", plan.BlockCount())
		}
	})
}

// w2Input is a 20,000-line file and a 5-line block near its end.
func w2Input() (lines []string, s int) {
	lines = gen.Code(20000, 2)
	return lines, gen.BlockAt(lines, 19000)
}

// W2: one exact 5-line block near the end of a 20,000-line file.
func BenchmarkW2(b *testing.B) {
	lines, s := w2Input()
	files := memFS{"big.py": []byte(gen.JoinLines(lines))}
	search := gen.JoinLines(lines[s : s+5])
	replace := gen.JoinLines(append([]string{lines[s] + "  # changed"}, lines[s+1:s+5]...))
	benchRun(b, files, gen.SRBlock("big.py", search, replace), Options{}, func(b *testing.B, plan *Plan) {
		wantOK(b, plan)
		if r := plan.Blocks[0]; r.Line != s+1 || r.Rung != "exact" {
			b.Fatalf("matched line %d by %s, want %d", r.Line, r.Rung, s+1)
		}
	})
}

// W3: the W2 block with its indentation 4 spaces short (fuzzy); REPLACE must
// come out at the file's indentation.
func BenchmarkW3(b *testing.B) {
	lines, s := w2Input()
	files := memFS{"big.py": []byte(gen.JoinLines(lines))}
	var search, replace strings.Builder
	for i, l := range lines[s : s+5] {
		search.WriteString(l[4:] + "\n")
		if i == 0 {
			replace.WriteString(l[4:] + "  # changed\n")
		} else {
			replace.WriteString(l[4:] + "\n")
		}
	}
	want := append(append(append([]string{}, lines[:s]...), lines[s]+"  # changed"), lines[s+1:]...)
	benchRun(b, files, gen.SRBlock("big.py", search.String(), replace.String()), Options{Fuzzy: true}, func(b *testing.B, plan *Plan) {
		wantOK(b, plan)
		if r := plan.Blocks[0]; r.Line != s+1 || r.Rung != "indentation" {
			b.Fatalf("matched line %d by %s, want %d by indentation", r.Line, r.Rung, s+1)
		}
		if got := string(plan.Files[0].Bytes()); got != gen.JoinLines(want) {
			b.Fatalf("wrong result")
		}
	})
}

// W4: a one-line typo in the middle line of a 5-line block: not found, the
// closest match names the block's lines.
func benchmarkW4(b *testing.B, n int, fuzzy bool) {
	lines := gen.Code(n, 4)
	s := gen.BlockAt(lines, n/2)
	block := gen.Typo(lines[s : s+5])
	files := memFS{"big.py": []byte(gen.JoinLines(lines))}
	benchRun(b, files, gen.SRBlock("big.py", gen.JoinLines(block), "pass\n"), Options{Fuzzy: fuzzy}, func(b *testing.B, plan *Plan) {
		errs := plan.Problems.Errors()
		if len(errs) != 1 || errs[0].Kind != KindNotFound || len(errs[0].Candidates) != 1 || errs[0].Candidates[0].Line != s+1 {
			b.Fatalf("want not found with closest line %d, got %+v", s+1, errs)
		}
	})
}

func BenchmarkW4_5k(b *testing.B)        { benchmarkW4(b, 5000, false) }
func BenchmarkW4_50k(b *testing.B)       { benchmarkW4(b, 50000, false) }
func BenchmarkW4_5k_fuzzy(b *testing.B)  { benchmarkW4(b, 5000, true) }
func BenchmarkW4_50k_fuzzy(b *testing.B) { benchmarkW4(b, 50000, true) }

// W5: a 5-line block that occurs twice in a 2,000-line file: ambiguous, both
// places reported.
func BenchmarkW5(b *testing.B) {
	lines := gen.Code(2000, 5)
	s := gen.BlockAt(lines, 300)
	block := append([]string{}, lines[s:s+5]...)
	// Copy the block again further down, as a second place.
	at := 1500
	lines = append(append(append([]string{}, lines[:at]...), block...), lines[at:]...)
	files := memFS{"two.py": []byte(gen.JoinLines(lines))}
	benchRun(b, files, gen.SRBlock("two.py", gen.JoinLines(block), "pass\n"), Options{}, func(b *testing.B, plan *Plan) {
		errs := plan.Problems.Errors()
		if len(errs) != 1 || errs[0].Kind != KindAmbiguous || len(errs[0].Candidates) != 2 ||
			errs[0].Candidates[0].Line != s+1 || errs[0].Candidates[1].Line != at+1 {
			b.Fatalf("want ambiguous at %d and %d, got %+v", s+1, at+1, errs)
		}
	})
}

// benchLocate measures matching alone: the files are loaded once, and each
// iteration locates every block of the patch in its file as loaded (the
// blocks of these workloads do not depend on each other). Validate's own
// costs — copying each file into a doc, splicing, rendering the new bytes
// — are left out; the W benchmarks above include them.
func benchLocate(b *testing.B, files memFS, p *Patch, opt Options) {
	docs := map[string]*doc{}
	for name, data := range files {
		docs[name] = loadDoc(data)
	}
	v := &validator{fsys: files, opt: opt, plan: &Plan{}, targets: map[string]*target{}}
	b.ReportAllocs()
	for b.Loop() {
		v.plan.Problems = v.plan.Problems[:0]
		for i := range p.Blocks {
			blk := &p.Blocks[i]
			v.locate(blk, docs[blk.Path])
		}
	}
}
