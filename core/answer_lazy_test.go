package core

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// scopesFile has namesakes and equal statements in several bodies: a
// method named in two classes and twice in one, the same loop, call and
// assignment in many bodies, a method named as a top-level function.
const scopesFile = `import os

X = 1


def one():
    x = 1
    y = 2
    return x + y


class Server:
    port = 80

    def start(self):
        x = 1
        for job in self.jobs:
            run(job)
            x = 2
        return True

    def stop(self):
        pass

    def start(self, b):
        return b


class Client:
    port = 80

    def start(self):
        for job in self.jobs:
            run(job)
        return False

    def one(self):
        y = 2
        if x:
            return x + y
        return x


def two():
    for job in jobs:
        if job:
            run(job)
    return 2
`

// TestMayPairChangesNothing resolves lazy blocks cut from every body of
// files with namesakes, rewritten, reordered and renamed at random, with
// and without mayPair ruling bodies out: the same files, shapes and
// refusals, word for word.
func TestMayPairChangesNothing(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	n := 3000
	if testing.Short() {
		n = 600
	}
	outcomes := map[string]int{}
	for _, file := range []string{scopesFile, pyFile} {
		lines := splitKeep(file)
		items, _ := indentOutline("a.py", file)
		var scopes [][]Item
		var headers []*Item
		var collect func(items []Item, parent *Item)
		collect = func(items []Item, parent *Item) {
			scopes, headers = append(scopes, items), append(headers, parent)
			for i := range items {
				if len(items[i].Kids) > 0 {
					collect(items[i].Kids, &items[i])
				}
			}
		}
		collect(items, nil)
		for c := 0; c < n; c++ {
			k := rng.Intn(len(scopes))
			code := lazyCut(rng, lines, scopes[k], headers[k])
			run := func(every bool) *Plan {
				alignEveryScope = every
				defer func() { alignEveryScope = false }()
				return runSnippet(t, MapFS{"a.py": file}, snippetBlock("a.py", code))
			}
			all, skipping := run(true), run(false)
			if diff := planDiff(all, skipping); diff != "" {
				t.Fatalf("block:\n%s\nevery body aligned vs. bodies ruled out: %s", code, diff)
			}
			switch {
			case all.OK():
				outcomes["applies"]++
			default:
				outcomes[string(all.Problems[0].Kind)]++
			}
		}
	}
	// The blocks must reach both sides of every rule they check.
	for _, o := range []string{"applies", string(KindAmbiguous), string(KindNotFound)} {
		if outcomes[o] == 0 {
			t.Errorf("no block %s: %v", o, outcomes)
		}
	}
	t.Log(outcomes)
}

// lazyCut is a lazy block cut from one scope of the file: a few of its
// items in order or not, each whole or its first lines with a marker for
// its body, a line rewritten, a definition renamed or a line added, with
// or without the scope's first line, markers between and around.
func lazyCut(rng *rand.Rand, lines []string, scope []Item, header *Item) string {
	var picked []int
	for i := range scope {
		if rng.Intn(3) == 0 {
			picked = append(picked, i)
		}
	}
	if len(picked) == 0 {
		picked = []int{rng.Intn(len(scope))}
	}
	if len(picked) > 1 && rng.Intn(5) == 0 {
		i := rng.Intn(len(picked) - 1)
		picked[i], picked[i+1] = picked[i+1], picked[i]
	}
	indent := leadOf(lines[scope[0].Start])
	marker := func(ind string) []string { return []string{ind + "# ... existing code ...\n"} }
	var out []string
	if header != nil && rng.Intn(3) == 0 {
		out = append(out, lines[header.Start:header.Head]...)
	}
	if rng.Intn(2) == 0 {
		out = append(out, marker(indent)...)
	}
	for n, i := range picked {
		it := scope[i]
		if n > 0 && (picked[n-1]+1 != i || rng.Intn(3) == 0) && rng.Intn(5) > 0 {
			out = append(out, marker(indent)...)
		}
		var cut []string
		if len(it.Kids) > 0 && rng.Intn(2) == 0 {
			cut = append(cut, lines[it.Lead:it.Head]...)
			cut = append(cut, marker(leadOf(lines[it.Head]))...)
			cut = append(cut, lines[it.End-1])
		} else {
			cut = append(cut, lines[it.Lead:it.End]...)
		}
		switch rng.Intn(5) {
		case 0:
			l := rng.Intn(len(cut))
			if !strings.Contains(cut[l], "existing code") {
				cut[l] = strings.TrimSuffix(cut[l], "\n") + "  # changed\n"
			}
		case 1:
			if it.Name != "" {
				cut[0] = strings.Replace(cut[0], it.Name, it.Name+"2", 1)
			}
		case 2:
			cut = append(cut, leadOf(cut[0])+"added()\n")
		}
		out = append(out, cut...)
	}
	if rng.Intn(2) == 0 {
		out = append(out, marker(indent)...)
	}
	code := strings.Join(out, "")
	if !strings.Contains(code, "existing code") {
		code += indent + "# ... existing code ...\n"
	}
	if rng.Intn(2) == 0 {
		// Dedented, as a chat shows a method without its class.
		var d []string
		for _, l := range splitKeep(code) {
			d = append(d, strings.TrimPrefix(l, indent))
		}
		code = strings.Join(d, "")
	}
	return code
}

// planDiff tells two plans apart by what a user sees of them.
func planDiff(a, b *Plan) string {
	type view struct {
		OK       bool
		Problems []Problem
		Shapes   []Shape
		Files    map[string]string
	}
	see := func(p *Plan) view {
		v := view{OK: p.OK(), Problems: p.Problems, Files: map[string]string{}}
		for _, bl := range p.Blocks {
			v.Shapes = append(v.Shapes, bl.Shape)
		}
		for _, f := range p.Files {
			v.Files[f.Path] = string(f.Bytes())
		}
		return v
	}
	if va, vb := see(a), see(b); !reflect.DeepEqual(va, vb) {
		return fmt.Sprintf("\n%+v\nvs.\n%+v", va, vb)
	}
	return ""
}

// TestIsTextOf: isTextOf and sameTrimmed answer as comparing textOf does.
func TestIsTextOf(t *testing.T) {
	texts := [][]string{
		nil, {"\n"}, {"  x = 1\n"}, {"x = 1\r\n"}, {"x = 1"}, {"x = 1\n", "\n"}, {"x = 1\n", "y\n"},
		{"x\n", "= 1\n"}, {"x = 1 y\n"}, {"x = 1\n", "  y  \n"}, {"\tx = 1\n", "y\n", "\n"}, {"x\n", "\n", "y\n"},
	}
	for _, a := range texts {
		for _, b := range texts {
			want := textOf(a, Item{End: len(a)}) == textOf(b, Item{End: len(b)})
			if got := isTextOf(textOf(a, Item{End: len(a)}), b); got != want {
				t.Errorf("isTextOf(textOf(%q), %q) = %v, want %v", a, b, got, want)
			}
			if got := sameTrimmed(a, b); got != want {
				t.Errorf("sameTrimmed(%q, %q) = %v, want %v", a, b, got, want)
			}
		}
	}
}

// TestSnippetsOneFile: blocks after a lazy one resolve on the text it
// wrote (the doc keeps the text the stability check joined).
func TestSnippetsOneFile(t *testing.T) {
	blocks := []Block{
		snippetBlock("a.py", "def one():\n    x = 10\n    # ... existing code ...\n"),
		snippetBlock("a.py", "# ... existing code ...\ndef stop(self):\n    return False\n# ... existing code ...\n"),
		snippetBlock("a.py", "def one():\n    # ... existing code ...\n    y = 20\n    # ... existing code ...\n"),
		snippetBlock("a.py", "def two():\n    return 22\n"),
	}
	for i := range blocks {
		blocks[i].Number = i + 1
	}
	plan := runSnippet(t, MapFS{"a.py": pyFile}, blocks...)
	if !plan.OK() {
		t.Fatalf("refused: %v", plan.Problems)
	}
	want := strings.NewReplacer("    x = 1\n", "    x = 10\n", "    y = 2\n", "    y = 20\n", "        pass\n", "        return False\n", "return 2\n", "return 22\n").Replace(pyFile)
	if got := content(plan, "a.py"); got != want {
		t.Errorf("file after:\n%s\nwant:\n%s", got, want)
	}
}
