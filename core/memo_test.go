package core

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSameBlockCountsEveryField: a block that differs in any one field is
// another block, so a field added to Block must be compared too.
func TestSameBlockCountsEveryField(t *testing.T) {
	base := Block{Number: 2, Path: "a.py", Search: "x\n", Replace: "y\n", Anchors: []string{"def f"}, Hashes: []HashRef{{Line: 1, Hash: "abcd"}}, Literal: []int{0}, Omissions: []int{1}}
	if !sameBlock(&base, &base) {
		t.Fatal("a block differs from itself")
	}
	typ := reflect.TypeOf(base)
	for i := range typ.NumField() {
		other := base
		other.Anchors = append([]string(nil), base.Anchors...)
		other.Hashes = append([]HashRef(nil), base.Hashes...)
		other.Literal = append([]int(nil), base.Literal...)
		other.Omissions = append([]int(nil), base.Omissions...)
		f := reflect.ValueOf(&other).Elem().Field(i)
		if !typ.Field(i).IsExported() {
			// Unexported: set through a pointer of its own type.
			f = reflect.NewAt(f.Type(), f.Addr().UnsafePointer()).Elem()
		}
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "z")
		case reflect.Int:
			f.SetInt(f.Int() + 1)
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
		case reflect.Struct: // a Span
			f.Field(1).SetInt(f.Field(1).Int() + 1)
		default:
			t.Fatalf("field %s: kind %s not handled by this test", typ.Field(i).Name, f.Kind())
		}
		if sameBlock(&base, &other) {
			t.Errorf("blocks differing in %s read as the same block", typ.Field(i).Name)
		}
	}
}

// TestRevalidateAsValidate validates a patch as an editor sees it while it
// is written and edited, each text against the one before with
// Revalidate, and checks that every plan is Validate's.
func TestRevalidateAsValidate(t *testing.T) {
	fsys := MapFS{
		"a.py": "def one():\n    return 1\n\n\ndef two():\n    return 2\n",
		"b.py": "x = 1\ny = 2\nz = 3\n",
		"l.py": "same\nsame\n",
	}
	patch := "a.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 10\n>>>>>>> REPLACE\n\n" +
		"b.py\n<<<<<<< SEARCH\ny = 2\n=======\ny = 20\n>>>>>>> REPLACE\n\n" +
		"a.py\n<<<<<<< SEARCH\n    return 10\n=======\n    return 100\n>>>>>>> REPLACE\n\n" +
		"l.py\n<<<<<<< SEARCH\nsame\n=======\nother\n>>>>>>> REPLACE\n\n" +
		"new.py\n<<<<<<< SEARCH\n=======\nprint('new')\n>>>>>>> REPLACE\n\n" +
		"./b.py\n<<<<<<< SEARCH\nz = 3\n=======\nz = 30\n>>>>>>> REPLACE\n"
	opt := Options{Applied: true}
	var prev *Plan
	step := func(name, text string, fs FS) {
		t.Helper()
		got := Revalidate(prev, Parse(text, ParseOptions{}), fs, opt)
		want := Validate(Parse(text, ParseOptions{}), fs, opt)
		if g, w := planWords(got), planWords(want); g != w {
			t.Fatalf("%s: Revalidate\n%s\nValidate\n%s", name, g, w)
		}
		prev = got
	}
	for n := 0; n <= len(patch); n += 5 {
		step("prefix", patch[:n], fsys)
	}
	step("whole", patch, fsys)
	changed := MapFS{"a.py": fsys["a.py"], "b.py": "x = 1\ny = 2\nz = 3\nw = 4\n", "l.py": "same\n"}
	step("b.py and l.py changed", patch, changed)
	step("back", patch, fsys)
	step("block 1 edited", strings.Replace(patch, "return 10\n>>>>>>>", "return 11\n>>>>>>>", 1), fsys)
	step("back", patch, fsys)
	step("path edited", strings.Replace(patch, "l.py\n", "b.py\n", 1), fsys)
	step("text before the blocks", "intro\n\n"+patch, fsys)
	step("back", patch, fsys)
	step("applied", patch, MapFS{"a.py": strings.Replace(fsys["a.py"], "return 1\n", "return 100\n", 1), "b.py": "x = 1\ny = 20\nz = 30\n", "l.py": fsys["l.py"]})
}

// planWords is everything a plan says, as text.
func planWords(p *Plan) string {
	var b strings.Builder
	for _, r := range p.Blocks {
		fmt.Fprintf(&b, "%+v\n", r)
	}
	for _, pr := range p.Problems {
		fmt.Fprintf(&b, "%+v\n", pr)
	}
	for _, fc := range p.Files {
		fmt.Fprintf(&b, "%s %s %s %v %v %v %q\n", fc.Action, fc.Path, fc.Display, fc.Existed, fc.Lines, fc.Blocks, fc.Bytes())
	}
	return b.String()
}

// cachedFS gives the same memory for a file every time, as the language
// server's read cache does: Revalidate then takes what the last
// validation found of the bytes (their CR, their lack of NUL) instead of
// scanning them again.
type cachedFS struct {
	MapFS
	bytes map[string][]byte
}

func (c cachedFS) ReadFile(name string) ([]byte, error) {
	if b, ok := c.bytes[name]; ok {
		return b, nil
	}
	b, err := c.MapFS.ReadFile(name)
	if err == nil {
		c.bytes[name] = b
	}
	return b, err
}

func TestRevalidateAsValidateCachedBytes(t *testing.T) {
	fsys := cachedFS{MapFS: MapFS{
		"w.txt":   "one\r\ntwo\r\nthree\r\n",
		"u.txt":   "one\ntwo\n",
		"bin.dat": "a\x00b\n",
	}, bytes: map[string][]byte{}}
	patch := "w.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n\n" +
		"u.txt\n<<<<<<< SEARCH\none\n=======\n1\n>>>>>>> REPLACE\n\n" +
		"bin.dat\n<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE\n\n" +
		"w.txt\n<<<<<<< SEARCH\nthree\n=======\n3\n>>>>>>> REPLACE\n"
	opt := Options{Applied: true}
	var prev *Plan
	for n := 0; n < len(patch)+3; n += 3 {
		n := min(n, len(patch))
		got := Revalidate(prev, Parse(patch[:n], ParseOptions{}), fsys, opt)
		want := Validate(Parse(patch[:n], ParseOptions{}), fsys, opt)
		if g, w := planWords(got), planWords(want); g != w {
			t.Fatalf("prefix %d: Revalidate\n%s\nValidate\n%s", n, g, w)
		}
		prev = got
	}
	if !strings.Contains(planWords(prev), `"one\r\n2\r\n3\r\n"`) {
		t.Errorf("w.txt lost its CRLF:\n%s", planWords(prev))
	}
}

// TestRevalidateValidatesWhatChanged: while an answer streams in, each
// block is validated once, when it is complete, whatever the blocks of
// its file before it; an edit of a block validates it and the blocks
// after it in its file, whose places it can move, and no other.
func TestRevalidateValidatesWhatChanged(t *testing.T) {
	var lines []string
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("line %d", i))
	}
	fsys := MapFS{
		"f.py":  strings.Join(lines, "\n") + "\n",
		"w.txt": strings.Join(lines[:10], "\r\n") + "\r\n",
	}
	var patch strings.Builder
	fBlocks := 0
	for i := 0; i < 40; i += 4 {
		fmt.Fprintf(&patch, "Step %d.\n\nf.py\n<<<<<<< SEARCH\nline %d\n=======\nline %d changed\nline %d added\n>>>>>>> REPLACE\n\n", i, i, i, i)
		fBlocks++
		if i == 8 {
			patch.WriteString("w.txt\n<<<<<<< SEARCH\nline 3\n=======\nline 3 changed\n>>>>>>> REPLACE\n\n")
		}
	}
	text := patch.String()
	opt := Options{Applied: true}
	var prev *Plan
	validated := 0
	step := func(name, text string) *Plan {
		t.Helper()
		got := Revalidate(prev, Parse(text, ParseOptions{Streaming: true}), fsys, opt)
		want := Validate(Parse(text, ParseOptions{Streaming: true}), fsys, opt)
		if g, w := planWords(got), planWords(want); g != w {
			t.Fatalf("%s: Revalidate\n%s\nValidate\n%s", name, g, w)
		}
		prev = got
		return got
	}
	for n := 0; n < len(text)+7; n += 7 {
		validated += step("streaming", text[:min(n, len(text))]).memo.applied
	}
	if !prev.OK() || len(prev.Blocks) != fBlocks+1 {
		t.Fatalf("the whole answer: %d blocks, problems %v", len(prev.Blocks), prev.Problems)
	}
	if validated != fBlocks+1 {
		t.Errorf("streaming validated %d blocks, want each of the %d once", validated, fBlocks+1)
	}
	// Block 4 is f.py's fourth (w.txt's block is the fourth of the patch).
	edited := strings.Replace(text, "line 12 changed\n", "line 12 changed again\n", 1)
	if got := step("block edited", edited).memo.applied; got != fBlocks-3 {
		t.Errorf("an edit of f.py's fourth block validated %d blocks, want it and those after it, %d", got, fBlocks-3)
	}
	if got := step("back", text).memo.applied; got != fBlocks-3 {
		t.Errorf("undoing the edit validated %d blocks, want %d", got, fBlocks-3)
	}
	cut := text[:strings.LastIndex(text, "Step")]
	if got := step("last block deleted", cut).memo.applied; got != 0 {
		t.Errorf("deleting the last block validated %d blocks, want none", got)
	}
	if got := step("the w.txt block deleted", strings.Replace(text, "w.txt\n", "Nothing for w.txt.\n", 1)).memo.applied; got == 0 || got > fBlocks-2 {
		t.Errorf("renumbering the blocks after the third validated %d blocks, want those renumbered", got)
	}
}

// TestRevalidateRandomEdits: a patch edited at random, block by block
// (inserted, deleted, changed, their files changed on disk), validates
// with Revalidate as with Validate.
func TestRevalidateRandomEdits(t *testing.T) {
	var lines []string
	for i := range 30 {
		lines = append(lines, fmt.Sprintf("v%d = %d", i, i))
	}
	files := []string{"a.py", "b.py", "c.txt"}
	base := MapFS{
		"a.py":  strings.Join(lines, "\n") + "\n",
		"b.py":  strings.Join(lines, "\r\n") + "\r\n",
		"c.txt": strings.Join(lines[:12], "\n"),
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	block := func() string {
		f := files[rnd.IntN(len(files))]
		i := rnd.IntN(12)
		switch rnd.IntN(4) {
		case 0: // an edit of an earlier block's REPLACE
			return fmt.Sprintf("%s\n<<<<<<< SEARCH\nv%d = %d new\n=======\nv%d = %d newer\n>>>>>>> REPLACE\n\n", f, i, i, i, i)
		case 1: // two lines
			return fmt.Sprintf("%s\n<<<<<<< SEARCH\nv%d = %d\nv%d = %d\n=======\nv%d = %d new\n>>>>>>> REPLACE\n\n", f, i, i, i+1, i+1, i, i)
		}
		return fmt.Sprintf("%s\n<<<<<<< SEARCH\nv%d = %d\n=======\nv%d = %d new\n>>>>>>> REPLACE\n\n", f, i, i, i, i)
	}
	for round := range 20 {
		var blocks []string
		fsys := MapFS{}
		for k, v := range base {
			fsys[k] = v
		}
		var prev *Plan
		for step := range 40 {
			switch k := rnd.IntN(10); {
			case k < 4 || len(blocks) == 0:
				blocks = append(blocks, block())
			case k < 6:
				at := rnd.IntN(len(blocks) + 1)
				blocks = slices.Insert(blocks, at, block())
			case k < 8:
				at := rnd.IntN(len(blocks))
				blocks = slices.Delete(blocks, at, at+1)
			case k < 9:
				blocks[rnd.IntN(len(blocks))] = block()
			default:
				f := files[rnd.IntN(len(files))]
				fsys[f] = strings.Replace(base[f], fmt.Sprintf("v%d = ", rnd.IntN(12)), "w = ", 1)
			}
			text := strings.Join(blocks, "")
			if rnd.IntN(3) == 0 { // still streaming in
				text = text[:rnd.IntN(len(text)+1)]
			}
			opt := Options{Applied: true}
			got := Revalidate(prev, Parse(text, ParseOptions{Streaming: true}), fsys, opt)
			want := Validate(Parse(text, ParseOptions{Streaming: true}), fsys, opt)
			if g, w := planWords(got), planWords(want); g != w {
				t.Fatalf("round %d, step %d:\n%s\nRevalidate\n%s\nValidate\n%s", round, step, text, g, w)
			}
			prev = got
		}
	}
}
