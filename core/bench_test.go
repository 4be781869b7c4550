package core

import (
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
)

// The benchmarks of issue 3 (W1-W5), run in-process through Validate on an
// in-memory FS. The workloads are bench/gen's (the one definition the bench
// driver runs too): deterministic Python-like code with 4-space
// indentation, nested blocks, blank lines and repeated short lines.
//
//	go test ./core -run '^$' -bench 'W[1-5]' -benchmem

// benchRun validates patch against files, checks the outcome once, then
// measures three things: "validate", the whole of Validate (what a caller
// pays), "locate", the matching alone (see benchLocate), "parse", Parse
// alone, and "parse+validate", both.
func benchRun(b *testing.B, files MapFS, patch string, opt Options, check func(*testing.B, *Plan)) {
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

// benchWorkload runs one of bench/gen's workloads.
func benchWorkload(b *testing.B, w *gen.Workload, check func(*testing.B, *Plan)) {
	benchRun(b, MapFS(w.Files), w.Patch, Options{Fuzzy: w.Fuzzy}, check)
}

// W1: 200 blocks over 20 files of 500 lines (10 exact blocks per file).
func BenchmarkW1(b *testing.B) {
	benchWorkload(b, gen.W1(), func(b *testing.B, plan *Plan) {
		wantOK(b, plan)
		if plan.BlockCount() != 200 {
			b.Fatalf("%d blocks apply", plan.BlockCount())
		}
	})
}

// W2: one exact 5-line block near the end of a 20,000-line file.
func BenchmarkW2(b *testing.B) {
	w := gen.W2()
	benchWorkload(b, w, func(b *testing.B, plan *Plan) {
		wantOK(b, plan)
		if r := plan.Blocks[0]; r.Line != w.Lines[0] || r.Rung != "exact" {
			b.Fatalf("matched line %d by %s, want %d", r.Line, r.Rung, w.Lines[0])
		}
	})
}

// W3: the W2 block with its indentation 4 spaces short (fuzzy); REPLACE must
// come out at the file's indentation.
func BenchmarkW3(b *testing.B) {
	w := gen.W3()
	old := w.Files["big.py"]
	want := strings.Replace(old, "\n"+w.Needle+"\n", "\n"+w.Needle+"  # changed\n", 1)
	benchWorkload(b, w, func(b *testing.B, plan *Plan) {
		wantOK(b, plan)
		if r := plan.Blocks[0]; r.Line != w.Lines[0] || r.Rung != "indentation" {
			b.Fatalf("matched line %d by %s, want %d by indentation", r.Line, r.Rung, w.Lines[0])
		}
		if got := string(plan.Files[0].Bytes()); got != want || want == old {
			b.Fatalf("wrong result")
		}
	})
}

// W4: a one-line typo in the middle line of a 5-line block: not found, the
// closest match names the block's lines.
func benchmarkW4(b *testing.B, n int, fuzzy bool) {
	w := gen.W4(n)
	w.Fuzzy = fuzzy
	benchWorkload(b, w, func(b *testing.B, plan *Plan) {
		errs := plan.Problems.Errors()
		if len(errs) != 1 || errs[0].Kind != KindNotFound || len(errs[0].Candidates) != 1 || errs[0].Candidates[0].Line != w.Lines[0] {
			b.Fatalf("want not found with closest line %d, got %+v", w.Lines[0], errs)
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
	w := gen.W5()
	benchWorkload(b, w, func(b *testing.B, plan *Plan) {
		errs := plan.Problems.Errors()
		if len(errs) != 1 || errs[0].Kind != KindAmbiguous || len(errs[0].Candidates) != 2 ||
			errs[0].Candidates[0].Line != w.Lines[0] || errs[0].Candidates[1].Line != w.Lines[1] {
			b.Fatalf("want ambiguous at %v, got %+v", w.Lines, errs)
		}
	})
}

// benchLocate measures matching alone: the files are loaded once, and each
// iteration locates every block of the patch in its file as loaded (the
// blocks of these workloads do not depend on each other). Validate's own
// costs — copying each file into a doc, splicing, rendering the new bytes
// — are left out; the W benchmarks above include them.
func benchLocate(b *testing.B, files MapFS, p *Patch, opt Options) {
	docs := map[string]*doc{}
	for name, data := range files {
		docs[name] = loadDoc([]byte(data))
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

// BenchmarkRevalidateBlockCompleted is the chunk of a streamed answer
// (W8) that completes its last block: Revalidate from the plan of the
// answer without that block's last line. Ten blocks a file, or 50
// (dense500): the block completed is validated, not its file's others.
func BenchmarkRevalidateBlockCompleted(b *testing.B) {
	for _, c := range []struct {
		name string
		w    *gen.Workload
	}{{"500", gen.Answer(500)}, {"dense500", gen.DenseAnswer(500)}} {
		b.Run(c.name, func(b *testing.B) {
			files := MapFS(c.w.Files)
			end := strings.LastIndex(c.w.Patch, ">>>>>>> REPLACE")
			opt := Options{Applied: true}
			prev := Revalidate(nil, Parse(c.w.Patch[:end], ParseOptions{Streaming: true}), files, opt)
			patch := Parse(c.w.Patch, ParseOptions{Streaming: true})
			wantOK(b, Revalidate(prev, patch, files, opt))
			b.ReportAllocs()
			for b.Loop() {
				Revalidate(prev, patch, files, opt)
			}
		})
	}
}

// BenchmarkParseStreamed is Parse of a chat answer on each chunk of its
// stream (W8), through a ParseMemo as the language server parses it: 20
// characters appended to the last tenth of a 500-block answer, again and
// again.
func BenchmarkParseStreamed(b *testing.B) {
	for _, c := range []struct {
		name string
		w    *gen.Workload
	}{{"lazy500", gen.LazyAnswer(500)}, {"lazytwin500", gen.LazyTwinAnswer(500)}} {
		b.Run(c.name, func(b *testing.B) {
			opt := ParseOptions{Snippets: true, Streaming: true, Memo: &ParseMemo{}}
			start := len(c.w.Patch) * 9 / 10
			at := start
			b.ReportAllocs()
			for b.Loop() {
				if at >= len(c.w.Patch) {
					at = start
				}
				at = min(at+20, len(c.w.Patch))
				Parse(c.w.Patch[:at], opt)
			}
		})
	}
}
