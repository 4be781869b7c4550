package core

import (
	"bytes"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// loadScanned loads data as Validate does, through scanText.
func loadScanned(data []byte) *doc {
	_, cr := scanText(data)
	return loadDocScanned(data, cr)
}

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

// TestDocAdopt: a doc takes a spliced text its caller built as its flat
// text only when the pieces hold that many bytes, and keeps its BOM and
// line endings through it and the splices after.
func TestDocAdopt(t *testing.T) {
	d := loadDoc([]byte("\uFEFFa\r\nb\r\nc\r\n"))
	d.splice(2, 4, "B\nB2\n") // replace "b\n"
	const want = "a\nB\nB2\nc\n"
	d.adopt(want + "x\n")
	if d.pieces == nil {
		t.Fatal("took a text longer than its own")
	}
	d.adopt(want)
	if d.pieces != nil || d.text() != want {
		t.Fatalf("after adopt: pieces %q, text %q; want the flat text %q", d.pieces, d.text(), want)
	}
	d.adopt("") // flat already: nothing to take
	if d.text() != want {
		t.Fatalf("text %q after adopting again, want %q", d.text(), want)
	}
	d.splice(0, 2, "A\n")
	if got := string(d.bytes()); got != "\uFEFFA\r\nB\r\nB2\r\nc\r\n" {
		t.Errorf("bytes %q", got)
	}
}

// TestDocPiecesMatchFlat splices a doc many times at random whole lines
// and checks, after every splice, that the pieces read as the same text a
// flat string spliced the same way holds: bytes, line numbers, slices and
// exact occurrences. A doc is loaded as Validate loads a file.
func TestDocPiecesMatchFlat(t *testing.T) { eachScan(t, testDocPiecesMatchFlat) }

func testDocPiecesMatchFlat(t *testing.T) {
	rnd := rand.New(rand.NewSource(9))
	words := []string{"a", "b", "  x = 1", "\ty", "", "z z"}
	trials := 300
	if testing.Short() {
		trials = 100 // make test-full runs them all
	}
	for trial := range trials {
		lines := rnd.Intn(30)
		if trial%4 == 3 {
			lines = 400 + rnd.Intn(1200) // past 2 KB: many steps of each scan
		}
		raw := randDoc(rnd.Intn, words, lines, trial)
		d := loadScanned([]byte(raw))
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
// after a CR included (the pass stops at the first of them): texts of
// every length to 5 KB and a few of megabytes, with a BOM or not, the two
// bytes here and there or nowhere.
func TestScanText(t *testing.T) { eachScan(t, testScanText) }

func testScanText(t *testing.T) {
	rnd := rand.New(rand.NewSource(18))
	for n := 0; n < 3000; n++ {
		size := rnd.Intn(200)
		switch {
		case n%500 == 1:
			size = 2<<20 + rnd.Intn(5<<20)
		case n%2 == 0:
			size = rnd.Intn(5 << 10)
		}
		data := make([]byte, size)
		odd := rnd.Intn(3) == 0 // a NUL or CR here and there
		for i := range data {
			data[i] = "xxxxxxxxx\n\xe9"[rnd.Intn(11)]
			if odd && rnd.Intn(60+size/4) == 0 {
				data[i] = "\x00\r"[rnd.Intn(2)]
			}
		}
		if n%5 == 0 {
			data = append([]byte(bom), data...)
		}
		nul, cr := scanText(data)
		wantNUL := bytes.IndexByte(data, 0) >= 0
		wantCR := bytes.IndexByte(data, '\r') >= 0
		if nul != wantNUL || !nul && cr != wantCR {
			t.Fatalf("scanText(%q) = %v, %v", data, nul, cr)
		}
	}
}
