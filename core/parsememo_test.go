package core

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"golang.org/x/tools/txtar"

	"github.com/fsrb/fsrb/bench/gen"
)

// memoAnswers are answers to stream through a memo: the snippet parser's
// archives, the engine's cases, and W8's answers.
func memoAnswers(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{
		"lazy":  gen.LazyAnswer(30).Patch,
		"twin":  gen.LazyTwinAnswer(10).Patch,
		"sr":    gen.Answer(10).Patch,
		"dense": gen.DenseAnswer(20).Patch,
		// A format decided late: the lines before it decided nothing.
		"lazy, then a diff":   gen.LazyAnswer(5).Patch + "\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n",
		"lazy, then a patch":  gen.LazyAnswer(5).Patch + "\n*** Begin Patch\n*** Update File: x.py\n@@\n-a\n+b\n*** End Patch\n",
		"prose, then a block": strings.Repeat("Some words, then some more.\n", 40) + "x.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n",
	}
	for _, pattern := range []string{"testdata/snippet/*.txtar", "../testdata/cases/*.txtar"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range files {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ar.Files {
				if f.Name == "answer" || strings.HasPrefix(f.Name, "patch") {
					out[file+":"+f.Name] = string(f.Data)
				}
			}
		}
	}
	return out
}

// TestParseMemo streams each answer into Parse with a memo, as the
// language server parses a chat answer on every chunk, and holds every
// parse to a parse without one; then edits its middle, where the blocks
// after the edit move.
func TestParseMemo(t *testing.T) {
	for name, answer := range memoAnswers(t) {
		opt := ParseOptions{Snippets: true, Streaming: true}
		memo := &ParseMemo{}
		with := opt
		with.Memo = memo
		check := func(text, when string) {
			t.Helper()
			want, got := Parse(text, opt), Parse(text, with)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, %s: the parse with the memo differs:\ngot  %+v\nwant %+v", name, when, got.Blocks, want.Blocks)
			}
		}
		for _, step := range []int{7, 61} {
			for n := step; n < len(answer)+step; n += step {
				check(answer[:min(n, len(answer))], "streamed")
			}
		}
		mid := len(answer) / 2
		check(answer[:mid]+"x"+answer[mid:], "a byte added in the middle")
		check(answer[:mid]+answer[mid+1:], "a byte taken out of the middle")
		check(answer[:mid]+"x"+answer[mid+1:], "a byte of the middle replaced")
		check(answer, "as it was")
		check(answer[:mid]+"\n```\n"+answer[mid+5:], "a fence in the middle")
		check(answer, "as it was")
	}
}

// TestParseMemoAsksExists: a block whose reading asked Exists is read
// again, since the file it asked about may have come or gone.
func TestParseMemoAsksExists(t *testing.T) {
	answer := "Here:\n\nMakefile\n```\nall:\n\tgo build\n```\n"
	there := false
	opt := ParseOptions{Snippets: true, Exists: func(name string) bool { return there && name == "Makefile" }, Memo: &ParseMemo{}}
	if p := Parse(answer, opt); len(p.Blocks) != 0 {
		t.Fatalf("with no Makefile: %d blocks, want none", len(p.Blocks))
	}
	there = true
	if p := Parse(answer, opt); len(p.Blocks) != 1 || p.Blocks[0].Path != "Makefile" {
		t.Fatalf("with a Makefile: %+v, want one block for it", p.Blocks)
	}
	there = false
	if p := Parse(answer, opt); len(p.Blocks) != 0 {
		t.Fatalf("with the Makefile gone: %d blocks, want none", len(p.Blocks))
	}
}

// TestParseMemoTakesEveryClosedBlock: once an answer's code blocks are
// closed, the next parse takes every one from the memo, the chunk after
// them added or not; a block moved by an edit above it is read again.
func TestParseMemoTakesEveryClosedBlock(t *testing.T) {
	answer := gen.LazyAnswer(30).Patch
	memo := &ParseMemo{}
	opt := ParseOptions{Snippets: true, Streaming: true, Memo: memo}
	Parse(answer, opt)
	first := memo.last
	if len(first) < 30 {
		t.Fatalf("the memo keeps %d readings after the first parse, want one per block (30) at least", len(first))
	}
	for i, r := range first {
		b := r.block
		for _, s := range []string{r.text, b.Path, b.Search, b.Replace, b.Lang} {
			if s != "" && rebase(s, answer, strings.Repeat("x", len(answer))) != s {
				t.Fatalf("reading %d keeps a slice of the parsed text alive (%.40q)", i, s)
			}
		}
	}
	for i := 1; i < len(first); i++ {
		a, b := first[i-1].block.Path, first[i].block.Path
		if a == b && unsafe.StringData(a) != unsafe.StringData(b) {
			t.Fatalf("readings %d and %d name %s with two strings, not one", i-1, i, a)
		}
	}
	Parse(answer+"\nAnd then", opt)
	for i, r := range memo.last {
		if i >= len(first) || r != first[i] {
			t.Fatalf("reading %d of the second parse was not taken from the memo", i)
		}
	}
	Parse("A line added above.\n"+answer, opt)
	for i, r := range memo.last {
		if i < len(first) && r == first[i] {
			t.Fatalf("reading %d was taken from the memo though every block moved", i)
		}
	}
}

// TestParseMemoUndecidedLines: once no line of an answer decided its
// format, the next parse looks again only from the last whole line the
// two texts share.
func TestParseMemoUndecidedLines(t *testing.T) {
	answer := gen.LazyAnswer(10).Patch
	memo := &ParseMemo{}
	opt := ParseOptions{Snippets: true, Streaming: true, Memo: memo}
	Parse(answer, opt)
	if !memo.undecided {
		t.Fatalf("no line of a chat answer decides a format, but the memo says one did")
	}
	next := answer + "And a last line"
	lines := splitLines(next)
	run := memo.begin(next)
	// The answer ends with a newline: its last line and the one added
	// are looked at again.
	if got, want := run.undecidedLines(lines), len(lines)-2; got != want {
		t.Errorf("undecidedLines = %d of %d lines, want %d", got, len(lines), want)
	}
	run.end()
	Parse(answer+"--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n", opt)
	if memo.undecided {
		t.Errorf("a diff's headers decided the format, but the memo says none did")
	}
	if got := memo.begin(answer).undecidedLines(splitLines(answer)); got != 0 {
		t.Errorf("after a text some line decided, undecidedLines = %d, want 0", got)
	}
}

func TestCommonPrefix(t *testing.T) {
	long := strings.Repeat("abcdefgh", 300)
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 0},
		{"abc", "abd", 2},
		{"abc", "abcdef", 3},
		{long, long + "x", len(long)},
		{long + "x", long + "y", len(long)},
		{long[:1000] + "!" + long[1001:], long, 1000},
		{long[:1024] + "!" + long[1025:], long, 1024},
		{"x" + long, long, 0},
	} {
		if got := CommonPrefix(c.a, c.b); got != c.want {
			t.Errorf("CommonPrefix(%.10q... (%d bytes), %.10q... (%d bytes)) = %d, want %d", c.a, len(c.a), c.b, len(c.b), got, c.want)
		}
		if got := CommonPrefix(c.b, c.a); got != c.want {
			t.Errorf("CommonPrefix reversed = %d, want %d", got, c.want)
		}
		// The same texts backwards share as long a suffix.
		ra, rb := reversed(c.a), reversed(c.b)
		if got := CommonSuffix(ra, rb); got != c.want {
			t.Errorf("CommonSuffix(%.10q... (%d bytes), %.10q... (%d bytes)) = %d, want %d", ra, len(ra), rb, len(rb), got, c.want)
		}
		if got := CommonSuffix(rb, ra); got != c.want {
			t.Errorf("CommonSuffix reversed = %d, want %d", got, c.want)
		}
	}
	// A difference at every offset across the block lengths compared.
	rlong := reversed(long)
	for k := range 1100 {
		a := long[:k] + "!" + long[k+1:]
		if got := CommonPrefix(a, long); got != k {
			t.Errorf("a difference at byte %d: CommonPrefix = %d", k, got)
		}
		if got := CommonSuffix(reversed(a), rlong); got != k {
			t.Errorf("a difference at byte %d from the end: CommonSuffix = %d", k, got)
		}
	}
}

func reversed(s string) string {
	b := []byte(s)
	slices.Reverse(b)
	return string(b)
}

// TestParseMemoConcurrent: parses of one document's versions may run at
// once (an analysis and a request on an older snapshot); each must read
// as a parse without the memo, whichever hands its readings on last.
func TestParseMemoConcurrent(t *testing.T) {
	answer := gen.LazyAnswer(20).Patch
	opt := ParseOptions{Snippets: true, Streaming: true}
	with := opt
	with.Memo = &ParseMemo{}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 50 + g*13; n < len(answer); n += 97 {
				text := answer[:n]
				if g%2 == 1 {
					text = "An edit above.\n" + text
				}
				if got, want := Parse(text, with), Parse(text, opt); !reflect.DeepEqual(got, want) {
					t.Errorf("goroutine %d, %d bytes: the parse with the memo differs", g, n)
					return
				}
			}
		}()
	}
	wg.Wait()
}
