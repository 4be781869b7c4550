package core

import (
	"fmt"
	"reflect"
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
