package core

import (
	"bytes"
	"testing"
)

// Head(n) is Bytes()[:n] without building the content, for every kind of
// doc: one file flat, spliced pieces, no final newline, BOM, CRLF.
func TestFileChangeHead(t *testing.T) {
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
	fsys := MapFS(files)
	// Twice: Head before Bytes (from the doc) and after (from the bytes).
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
			for n := 0; n <= len(want)+2; n++ {
				got := fc.Head(n)
				if w := want[:min(n, len(want))]; !bytes.Equal(got, w) {
					t.Errorf("%s built=%v Head(%d) = %q, want %q", fc.Path, built, n, got, w)
				}
			}
		}
	}
}
