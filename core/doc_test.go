package core

import (
	"bytes"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

func TestDocRoundTrip(t *testing.T) {
	for _, in := range []string{
		"", "a\n", "a", "0\r", "a\r\nb\r", "a\r\nb\r\n", "a\r\nb", "\uFEFFa\nb", "a\nb\r\nc\n", "\r\n", "x\r\ny\n\n",
	} {
		if got := string(loadDoc([]byte(in)).bytes()); got != in {
			t.Errorf("round trip %q gave %q", in, got)
		}
	}
}

func TestDocSpliceKeepsEndings(t *testing.T) {
	d := loadDoc([]byte("a\r\nb\nc\r\nd"))
	// CRLF wins 2:1 (a final line without a newline has no ending to count).
	d.splice(2, 4, "B1\nB2\n") // replace "b\n"
	if got := string(d.bytes()); got != "a\r\nB1\r\nB2\r\nc\r\nd" {
		t.Errorf("got %q", got)
	}
	d = loadDoc([]byte("a\nb"))
	d.splice(2, 4, "")
	if got := string(d.bytes()); got != "a" {
		t.Errorf("delete last line without newline: got %q", got)
	}
}

// TestDocPiecesMatchFlat splices a doc many times at random whole lines
// and checks, after every splice, that the pieces read as the same text a
// flat string spliced the same way holds: bytes, line numbers, slices and
// exact occurrences.
func TestDocPiecesMatchFlat(t *testing.T) {
	rnd := rand.New(rand.NewSource(9))
	words := []string{"a", "b", "  x = 1", "\ty", "", "z z"}
	for trial := range 300 {
		raw := randDoc(rnd.Intn, words, rnd.Intn(30), trial)
		d := loadDoc([]byte(raw))
		ref := loadDoc([]byte(raw))
		for step := range 2 * maxPieces {
			text := ref.text()
			starts := lineStarts(text)
			i := rnd.Intn(len(starts))
			j := i + rnd.Intn(min(3, len(starts)-i))
			start, end := starts[i], starts[j]
			if text == "" {
				start, end = 0, 0
			}
			repl := randLines(rnd.Intn, words, rnd.Intn(3))
			d.splice(start, end, repl)
			// The reference: a flat doc, spliced as a string.
			ref.spliceCRLF(strings.Count(text[:start], "\n"), strings.Count(text[start:end], "\n"), repl)
			ref.flat = text[:start] + repl + text[end:]
			want := ref.text()
			if ref.pieces != nil {
				t.Fatal("the reference has pieces")
			}
			if d.len() != len(want) || d.lines() != strings.Count(want, "\n") {
				t.Fatalf("trial %d step %d: len %d lines %d, want %d %d", trial, step, d.len(), d.lines(), len(want), strings.Count(want, "\n"))
			}
			for k := 0; k < 5 && len(want) > 0; k++ {
				a := rnd.Intn(len(want))
				b := a + rnd.Intn(len(want)-a+1)
				if got := d.slice(a, b); got != want[a:b] {
					t.Fatalf("trial %d step %d: slice(%d,%d) = %q, want %q", trial, step, a, b, got, want[a:b])
				}
				if got := d.lineOf(a); got != strings.Count(want[:a], "\n") {
					t.Fatalf("trial %d step %d: lineOf(%d) = %d", trial, step, a, got)
				}
			}
			for _, search := range []string{"a\nb\n", "  x = 1\n\ty\n", "z z\n", "\n"} {
				if got, w := d.occurrences(search, 50), occurrences(want, search, 50); !slices.Equal(got, w) {
					t.Fatalf("trial %d step %d: occurrences(%q) = %v, want %v", trial, step, search, got, w)
				}
			}
			if got, w := string(d.bytes()), string(ref.bytes()); got != w {
				t.Fatalf("trial %d step %d: bytes %q, want %q", trial, step, got, w)
			}
		}
		if d.text() != ref.text() {
			t.Fatalf("trial %d: text differs after joining", trial)
		}
	}
}

// scanText's one pass answers as the two scans it replaces do, a NUL
// after a CR included (the pass stops at the first of them).
func TestScanText(t *testing.T) {
	rnd := rand.New(rand.NewSource(18))
	for n := 0; n < 2000; n++ {
		data := make([]byte, rnd.Intn(200))
		for i := range data {
			data[i] = 'x'
			if rnd.Intn(60) == 0 {
				data[i] = "\x00\r"[rnd.Intn(2)]
			}
		}
		nul, cr := scanText(data)
		wantNUL := bytes.IndexByte(data, 0) >= 0
		if nul != wantNUL || !nul && cr != (bytes.IndexByte(data, '\r') >= 0) {
			t.Fatalf("scanText(%q) = %v, %v", data, nul, cr)
		}
	}
}
