package treesitter

import (
	"bytes"
	"hash/maphash"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
)

// TestOutlineSplice edits the sample of every language and the
// benchmarks' generated files at random, in chains of edits as an answer
// writes a file block by block, and holds each outline the cache splices
// from the one before to the whole walk of the edited text.
func TestOutlineSplice(t *testing.T) {
	files := samplePaths(t)
	texts := map[string]string{"gen.go": goFile(300), "gen.py": gen.JoinLines(gen.Code(300, 1))}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[filepath.Base(f)] = string(src)
	}
	rounds := 300
	if testing.Short() {
		rounds = 60
	}
	spliced, members, tried, errs := 0, 0, 0, 0
	for name, text := range texts {
		if LanguageFor(name, []byte(text)) == nil {
			continue
		}
		rnd := rand.New(rand.NewSource(int64(len(text))))
		c := NewCache(4)
		cur := text
		for i := range rounds {
			if i%20 == 0 {
				cur = text
			}
			if _, ok := c.Outline(name, cur); !ok {
				t.Fatalf("%s: no outline", name)
			}
			next := randomEdit(rnd, cur)
			if next == cur {
				continue
			}
			tr, err := c.Parse(name, 0, dedented([]byte(next)), nil)
			if err != nil {
				t.Fatal(err)
			}
			// The whole walk of the same tree: an incremental parse of
			// broken code may recover otherwise than a fresh one.
			want := tr.Outline()
			if tr.t.RootNode().HasError() {
				errs++
			}
			tried++
			o, ok := tr.outline(c.outlines.nearest(name), len(tr.content) == len(next))
			if ok {
				spliced++
			}
			if o.members {
				members++
			}
			if !reflect.DeepEqual(o.items, want) {
				t.Fatalf("%s: spliced %v, the outline after an edit differs from the whole walk's\nbefore:\n%s\nafter:\n%s\ngot:\n%s\nwant:\n%s",
					name, ok, cur, next, dumpOutline(next, o.items), dumpOutline(next, want))
			}
			c.outlines.put(name, maphash.String(seed, next), next, o, len(tr.lines))
			cur = next
		}
	}
	// Random edits break code often; an outline of code with no error
	// is spliced but for a Python block of comments alone (a repair).
	if clean := tried - errs; spliced < clean*9/10 {
		t.Errorf("%d of %d outlines of code with no error spliced: the splice is seldom taken", spliced, clean)
	}
	if members == 0 {
		t.Errorf("no outline spliced inside a class")
	}
	t.Logf("%d of %d outlines spliced, %d of them inside a class; %d of code with errors", spliced, tried, members, errs)
}

// TestOutlineSpliceInClass writes a chat answer's edits into a file one
// after the other, as W8's lazy answer does: a comment added to the
// return line of one method after another, across the file's classes.
// Each outline is spliced inside its class from the one before, and is
// the whole walk's.
func TestOutlineSpliceInClass(t *testing.T) {
	const name = "pkg/gen.py"
	lines := gen.Code(500, 500) // W8's first file: whole code, no error
	c := NewCache(4)
	if _, ok := c.Outline(name, gen.JoinLines(lines)); !ok {
		t.Fatal("no outline")
	}
	edits, members := 0, 0
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "        return ") {
			continue
		}
		lines[i] += "  # changed"
		if edits%3 == 2 { // a line added: the edit moves what follows
			lines = slices.Insert(lines, i, "        # a line added")
			i++
		}
		next := gen.JoinLines(lines)
		tr, err := c.Parse(name, 0, []byte(next), nil)
		if err != nil {
			t.Fatal(err)
		}
		if tr.t.RootNode().HasError() {
			t.Fatalf("edit %d (line %d) broke the code", edits, i+1)
		}
		want := tr.Outline()
		o, ok := tr.outline(c.outlines.nearest(name), true)
		if !reflect.DeepEqual(o.items, want) {
			t.Fatalf("edit %d (line %d): spliced %v, inside the class %v: the outline differs from the whole walk's\ngot:\n%s\nwant:\n%s",
				edits, i+1, ok, o.members, dumpOutline(next, o.items), dumpOutline(next, want))
		}
		if o.members {
			members++
		}
		c.outlines.put(name, maphash.String(seed, next), next, o, len(tr.lines))
		edits++
	}
	// An edit in a class's first method is spliced with its class: a
	// window from the first member would take the comments between the
	// class's first line and its body, which its kids start with.
	if edits < 30 || members < edits/2 {
		t.Errorf("%d of %d edits spliced inside their class", members, edits)
	}
	t.Logf("%d of %d edits spliced inside their class", members, edits)
}

// randomEdit changes text's lines as an edit might: one changed, some
// deleted, copied elsewhere, a blank line added or taken away, two
// swapped.
func randomEdit(rnd *rand.Rand, text string) string {
	lines := strings.SplitAfter(text, "\n")
	if len(lines) < 2 {
		return text + "\n"
	}
	i := rnd.Intn(len(lines))
	j := min(len(lines), i+1+rnd.Intn(3))
	var out []string
	switch rnd.Intn(6) {
	case 0: // a line changed inside
		l := lines[i]
		trimmed := strings.TrimRight(l, "\n")
		if k := strings.IndexAny(trimmed, "=(:{"); k > 0 {
			trimmed = trimmed[:k] + " " + trimmed[k:]
		} else {
			trimmed += " "
		}
		out = append(append(append(out, lines[:i]...), trimmed+l[len(strings.TrimRight(l, "\n")):]), lines[i+1:]...)
	case 1: // lines deleted
		out = append(append(out, lines[:i]...), lines[j:]...)
	case 2: // lines copied elsewhere
		k := rnd.Intn(len(lines))
		out = append(append(append(out, lines[:k]...), lines[i:j]...), lines[k:]...)
	case 3: // a blank line added
		out = append(append(append(out, lines[:i]...), "\n"), lines[i:]...)
	case 4: // two lines swapped
		if i+1 >= len(lines) {
			return text
		}
		out = append(append(append(append(out, lines[:i]...), lines[i+1]), lines[i]), lines[i+2:]...)
	default: // a line's words changed: a name, a value
		l := lines[i]
		out = append(append(append(out, lines[:i]...), strings.Replace(l, "e", "ee", 1)), lines[i+1:]...)
	}
	return strings.Join(out, "")
}

// TestCommentAfterOpener holds passForEmptyBlocks's first look to the
// whole one: any Python text with a block of comments alone has a
// comment after an opener.
// commentAfterOpenerByLine is commentAfterOpener read line by line, as
// it was: the reference for the look from one "#" to the next.
func commentAfterOpenerByLine(src []byte) bool {
	opener := false
	for _, line := range bytes.Split(src, []byte("\n")) {
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
		case line[0] == '#':
			if opener {
				return true
			}
		default:
			opener = line[len(line)-1] == ':'
		}
	}
	return false
}

func TestCommentAfterOpener(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "testdata", "treesitter", "defs", "greeter.py"))
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{string(src), gen.JoinLines(gen.Code(300, 1)),
		"class A:\n    # only a comment\n\nx = 1\n", "if x:\n\n    # later\n# at the end\n", "def f(): # c\n    # c\n    pass\n",
		"s = '#'\nif x: # c\n\t# c\r\n", "# a\n# b\nclass A:\n\u00a0# nbsp\n", "x = 1\n#", "x = 1\n# note:\n\n# more\n"}
	rnd := rand.New(rand.NewSource(2))
	found := 0
	for i := range 3000 {
		text := texts[i%len(texts)]
		if i >= len(texts) {
			// Comments put in at random, and taken out.
			lines := strings.SplitAfter(text, "\n")
			for range 1 + rnd.Intn(4) {
				if len(lines) == 0 {
					break
				}
				k := rnd.Intn(len(lines))
				if rnd.Intn(2) == 0 {
					lines = slices.Insert(lines, k, strings.Repeat(" ", 4*rnd.Intn(3))+"# note\n")
				} else {
					lines = slices.Delete(lines, k, k+1)
				}
			}
			text = strings.Join(lines, "")
		}
		if got, want := commentAfterOpener([]byte(text)), commentAfterOpenerByLine([]byte(text)); got != want {
			t.Fatalf("commentAfterOpener = %v, line by line %v:\n%s", got, want, text)
		}
		_, rows := emptyBlockPasses([]byte(text))
		if rows != nil {
			found++
			if !commentAfterOpener([]byte(text)) {
				t.Fatalf("a block of comments alone at rows %v, missed by the first look:\n%s", rows, text)
			}
		}
	}
	if found < 100 {
		t.Errorf("only %d texts with a block of comments alone: the test tries too few", found)
	}
}

// TestOutlineSpliceClassHeader edits a class's first line, alone or with
// its first method's, where a splice inside the class would keep the
// class's old name: each outline is the whole walk's.
func TestOutlineSpliceClassHeader(t *testing.T) {
	for _, c := range []struct{ name, before, after string }{
		{"a.py", "class Server:\n    def start(self):\n        return 1\n\n    def stop(self):\n        return 2\n",
			"class Servers:\n    def start(self):\n        return 1\n\n    def stop(self):\n        return 2\n"},
		{"a.py", "class Server:\n    def start(self):\n        return 1\n",
			"class Servers:\n    def start(self):\n        return 10\n"},
		{"a.js", "class Server { start(port) {\n    return port;\n  }\n  stop() {\n    return 0;\n  }\n}\n",
			"class Servers { start(port) {\n    return port;\n  }\n  stop() {\n    return 0;\n  }\n}\n"},
		{"a.js", "class Server {\n  start(port) {\n    return port;\n  }\n}\n",
			"class Servers {\n  start(port) {\n    return port + 1;\n  }\n}\n"},
	} {
		cache := NewCache(4)
		if _, ok := cache.Outline(c.name, c.before); !ok {
			t.Fatalf("%s: no outline", c.name)
		}
		tr, err := cache.Parse(c.name, 0, []byte(c.after), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := tr.Outline()
		o, ok := tr.outline(cache.outlines.nearest(c.name), true)
		if !reflect.DeepEqual(o.items, want) {
			t.Errorf("%s: spliced %v, inside the class %v: the outline differs from the whole walk's\ngot:\n%s\nwant:\n%s",
				c.name, ok, o.members, dumpOutline(c.after, o.items), dumpOutline(c.after, want))
		}
	}
}
