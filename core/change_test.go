package core

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// headFiles and headPatch are the kinds of doc a FileChange holds: one
// file flat, spliced pieces, no final newline, BOM, CRLF.
func headFiles() (MapFS, string) {
	files := map[string]string{
		"flat.txt":  "x\n",
		"lf.txt":    "a\nb\nc\nd\ne\n",
		"noeol.txt": "a\nb\nc\nd\ne",
		"bom.txt":   "\ufeffa\nb\nc\nd\ne\n",
		"crlf.txt":  "a\r\nb\r\nc\r\nd\r\ne\r\n",
		"last.txt":  "a\nb\nc\nd\ne",
	}
	edits := map[string][2]string{
		"flat.txt": {"x", "x"}, "lf.txt": {"b", "B1\nB2"}, "noeol.txt": {"c", "C"},
		"bom.txt": {"d", "D"}, "crlf.txt": {"b", "B"}, "last.txt": {"e", "E\nF"},
	}
	var patch string
	for name, e := range edits {
		patch += name + "\n<<<<<<< SEARCH\n" + e[0] + "\n=======\n" + e[1] + "\n>>>>>>> REPLACE\n"
	}
	return MapFS(files), patch
}

// eachHeadChange validates headFiles' patch twice and hands check each
// file change of the first plan, named, with the same change's Bytes()
// from the second: once before and once after the first change's own
// Bytes() are built, so that a method reads from the doc and from the
// built bytes alike.
func eachHeadChange(t *testing.T, check func(name string, fc FileChange, want []byte)) {
	t.Helper()
	fsys, patch := headFiles()
	for _, built := range []bool{false, true} {
		plan := Validate(Parse(patch, ParseOptions{}), fsys, Options{})
		if !plan.OK() {
			t.Fatalf("plan: %v", plan.Problems)
		}
		other := Validate(Parse(patch, ParseOptions{}), fsys, Options{})
		for i, fc := range plan.Files {
			if fc.Path != other.Files[i].Path {
				t.Fatalf("plans differ: %s, %s", fc.Path, other.Files[i].Path)
			}
			want := other.Files[i].Bytes()
			if built {
				fc.Bytes()
			}
			check(fmt.Sprintf("%s built=%v", fc.Path, built), fc, want)
		}
	}
}

// Head(n) is Bytes()[:n] without building the content, for every kind of
// doc (headFiles).
func TestFileChangeHead(t *testing.T) {
	eachHeadChange(t, func(name string, fc FileChange, want []byte) {
		for n := 0; n <= len(want)+2; n++ {
			got := fc.Head(n)
			if w := want[:min(n, len(want))]; !bytes.Equal(got, w) {
				t.Errorf("%s Head(%d) = %q, want %q", name, n, got, w)
			}
		}
	})
}

// WriteTo writes exactly Bytes(), before and after Bytes built them, for
// the docs of TestFileChangeHead, a change made by hand, and a delete.
func TestFileChangeWriteTo(t *testing.T) {
	eachHeadChange(t, func(name string, fc FileChange, want []byte) { checkWriteTo(t, name, fc, want) })
	checkWriteTo(t, "WithBytes", FileChange{}.WithBytes([]byte("by hand\r\n")), []byte("by hand\r\n"))
	checkWriteTo(t, "WithBytes(nil)", FileChange{}.WithBytes(nil), nil)
	checkWriteTo(t, "delete", FileChange{Action: ActionDelete}, nil)
}

// A property test: random files (LF, CRLF or mixed endings, a BOM, no final
// newline, sizes across the 64 KiB buffer) and random blocks; whatever
// plan Validate makes, WriteTo writes Bytes().
func TestFileChangeWriteToRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 6))
	words := []string{"a", "b", "cc", "dd d", "", "  x", "y\r"}
	plans := 0
	for iter := range 300 {
		nLines := 1 + r.IntN(40)
		if iter%25 == 0 {
			nLines = 20000 + r.IntN(5000) // over 64 KiB
		}
		var b strings.Builder
		if r.IntN(4) == 0 {
			b.WriteString(bom)
		}
		style := r.IntN(3)
		for i := range nLines {
			fmt.Fprintf(&b, "%s%d", words[r.IntN(len(words))], i) // unique lines
			if i == nLines-1 && r.IntN(3) == 0 {
				break // no final newline
			}
			if style == 1 || style == 2 && r.IntN(2) == 0 {
				b.WriteString("\r\n")
			} else {
				b.WriteString("\n")
			}
		}
		var patch strings.Builder
		used := map[int]bool{}
		for range 1 + r.IntN(4) {
			at := r.IntN(nLines)
			if used[at] {
				continue
			}
			used[at] = true
			repl := []string{"", "new", "new\nlines", "\n", "tail\r"}[r.IntN(5)]
			fmt.Fprintf(&patch, "f.txt\n<<<<<<< SEARCH\n%s%d\n=======\n%s\n>>>>>>> REPLACE\n", "", at, repl)
		}
		// SEARCH names a line by its number alone: rewrite it to the line.
		src := b.String()
		lines := strings.Split(strings.TrimPrefix(strings.ReplaceAll(src, "\r\n", "\n"), bom), "\n")
		text := patch.String()
		for at := range used {
			text = strings.Replace(text, fmt.Sprintf("SEARCH\n%d\n", at), "SEARCH\n"+lines[at]+"\n", 1)
		}
		fsys := MapFS{"f.txt": src}
		plan := Validate(Parse(text, ParseOptions{}), fsys, Options{})
		other := Validate(Parse(text, ParseOptions{}), fsys, Options{})
		for i, fc := range plan.Files {
			plans++
			checkWriteTo(t, fmt.Sprintf("iter %d", iter), fc, other.Files[i].Bytes())
		}
	}
	if plans < 200 {
		t.Fatalf("only %d plans had a file: the generator is off", plans)
	}
}

// checkWriteTo compares fc.WriteTo with want through a buffer, a writer
// that takes a few bytes at a time, small CRLF buffers (every flush
// boundary), and a writer that fails.
func checkWriteTo(t *testing.T, name string, fc FileChange, want []byte) {
	t.Helper()
	var buf bytes.Buffer
	n, err := fc.WriteTo(&buf)
	if err != nil || n != int64(len(want)) || !bytes.Equal(buf.Bytes(), want) {
		t.Fatalf("%s: WriteTo = %d, %v, %q; want %d bytes %q", name, n, err, trunc(buf.Bytes()), len(want), trunc(want))
	}
	if !bytes.Equal(fc.Bytes(), want) {
		t.Fatalf("%s: Bytes = %q, want %q", name, trunc(fc.Bytes()), trunc(want))
	}
	if fc.content != nil && fc.content.d != nil && len(want) < 1<<16 {
		for size := 3; size <= 9; size++ {
			var cw chunkWriter
			n, err := fc.content.d.writeToBuf(&cw, size)
			if err != nil || n != int64(len(want)) || !bytes.Equal(cw.b, want) {
				t.Fatalf("%s: buffer %d: %d, %v, %q; want %q", name, size, n, err, cw.b, want)
			}
		}
	}
	if len(want) > 0 {
		fail := errors.New("disk full")
		limit := len(want) / 2
		fw := &failWriter{limit: limit, err: fail}
		n, err := fc.WriteTo(fw)
		if !errors.Is(err, fail) || n != int64(fw.n) || n > int64(len(want)) || !bytes.Equal(want[:n], fw.b) {
			t.Fatalf("%s: WriteTo on a failing writer = %d, %v (wrote %d)", name, n, err, fw.n)
		}
	}
}

func trunc(b []byte) []byte { return b[:min(len(b), 200)] }

// chunkWriter keeps what it is given, and checks that no write is empty.
type chunkWriter struct{ b []byte }

func (c *chunkWriter) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, errors.New("empty write")
	}
	c.b = append(c.b, p...)
	return len(p), nil
}

// failWriter takes limit bytes, then fails as a full disk does.
type failWriter struct {
	b     []byte
	n     int
	limit int
	err   error
}

func (f *failWriter) Write(p []byte) (int, error) {
	k := min(len(p), f.limit-f.n)
	f.b = append(f.b, p[:k]...)
	f.n += k
	if k < len(p) {
		return k, f.err
	}
	return k, nil
}
