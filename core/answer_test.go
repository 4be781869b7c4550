package core

import (
	"regexp"
	"strings"
	"testing"
)

// indentOutline is a small outliner for Python-like text, by indentation:
// enough to exercise the resolver's pairing without a grammar (the
// tree-sitter outline has its own tests, and the txtar cases run both).
func indentOutline(path, text string) ([]Item, bool) {
	lines := splitKeep(text)
	var build func(from, to int, depth string) []Item
	def := regexp.MustCompile(`^(def|class)\s+(\w+)`)
	assign := regexp.MustCompile(`^(\w+)\s*=[^=]`)
	build = func(from, to int, ind string) []Item {
		var items []Item
		for i := from; i < to; {
			l := lines[i]
			if strings.TrimSpace(l) == "" {
				i++
				continue
			}
			t := strings.TrimSpace(l)
			it := Item{Lead: i, Start: i}
			j := i + 1
			for j < to && (strings.TrimSpace(lines[j]) == "" || len(leadOf(lines[j])) > len(leadOf(l))) {
				j++
			}
			for j > i+1 && strings.TrimSpace(lines[j-1]) == "" {
				j--
			}
			it.End = j
			if m := def.FindStringSubmatch(t); m != nil {
				it.Kind, it.Name = map[string]string{"def": "function", "class": "class"}[m[1]], m[2]
				it.Key = it.Kind + " " + it.Name
			} else if m := assign.FindStringSubmatch(t); m != nil {
				it.Key = "assign " + m[1]
			} else if strings.HasPrefix(t, "for ") || strings.HasPrefix(t, "if ") {
				it.Key = strings.TrimSuffix(t, ":")
			}
			if j > i+1 && strings.HasSuffix(t, ":") {
				it.Head, it.Tail = i+1, j
				it.Kids = build(i+1, j, leadOf(lines[i+1]))
			} else {
				it.Head, it.Tail = j, j
			}
			items = append(items, it)
			i = j
		}
		return items
	}
	return build(0, len(lines), ""), strings.HasSuffix(path, ".py")
}

// snippetBlock makes a snippet block of code, its markers found as the
// parser finds them.
func snippetBlock(path, code string) Block {
	b := Block{Number: 1, Path: path, Op: OpSnippet, Dialect: DialectChat, Replace: code}
	for i, l := range splitKeep(code) {
		t := strings.TrimSpace(l)
		if strings.Contains(t, "existing code") || t == "# ..." || t == "// ..." {
			b.Omissions = append(b.Omissions, i)
		}
	}
	return b
}

func runSnippet(t *testing.T, fsys MapFS, blocks ...Block) *Plan {
	t.Helper()
	p := &Patch{Blocks: blocks}
	return Validate(p, fsys, Options{Outline: indentOutline, Applied: true})
}

const pyFile = `import os


def one():
    x = 1
    y = 2
    return x + y


class Server:
    port = 80

    def start(self):
        for job in self.jobs:
            run(job)
        return True

    def stop(self):
        pass


def two():
    return 2
`

func TestSnippetShapes(t *testing.T) {
	tests := []struct {
		name, path, file, code string
		shape                  Shape
		want                   string // the file after; "" when refused
		kind                   Kind   // the refusal
	}{
		{
			name: "lazy statement rewritten by target", path: "a.py", file: pyFile, shape: ShapeLazy,
			code: "def one():\n    x = 10\n    # ... existing code ...\n",
			want: strings.Replace(pyFile, "    x = 1\n", "    x = 10\n", 1),
		},
		{
			name: "lazy method in class, new line in loop", path: "a.py", file: pyFile, shape: ShapeLazy,
			code: "class Server:\n    # ... existing code ...\n    def start(self):\n        for job in self.jobs:\n            log(job)\n            run(job)\n        return True\n    # ... existing code ...\n",
			want: strings.Replace(pyFile, "            run(job)\n", "            log(job)\n            run(job)\n", 1),
		},
		{
			name: "lazy method without its class", path: "a.py", file: pyFile, shape: ShapeLazy,
			code: "# ... existing code ...\ndef stop(self):\n    return False\n# ... existing code ...\n",
			want: strings.Replace(pyFile, "    def stop(self):\n        pass\n", "    def stop(self):\n        return False\n", 1),
		},
		{
			name: "lazy new function between two", path: "a.py", file: pyFile, shape: ShapeLazy,
			code: "# ... existing code ...\n\n\ndef between():\n    return 0\n\n\ndef two():\n    return 2\n",
			want: strings.Replace(pyFile, "\n\ndef two", "\n\ndef between():\n    return 0\n\n\ndef two", 1),
		},
		{
			name: "new statement above a marker, beside a structured one", path: "a.py", file: pyFile, shape: ShapeLazy,
			code: "def one():\n    print('start')\n    # ... existing code ...\n",
			want: strings.Replace(pyFile, "def one():\n", "def one():\n    print('start')\n", 1),
		},
		{
			name: "new text or a rewrite of what the marker keeps", path: "f.py", file: "def f():\n    print(1)\n    print(2)\n", kind: KindAmbiguous,
			code: "def f():\n    log(0)\n    # ... existing code ...\n",
		},
		{
			name: "a method named twice: its whole first line picks", path: "g.py", shape: ShapeLazy,
			file: "class A:\n    def go(self, a):\n        return 1\n\n    def go(self, b):\n        x = 1\n        return b\n",
			code: "def go(self, b):\n    x = 2\n    # ... existing code ...\n",
			want: "class A:\n    def go(self, a):\n        return 1\n\n    def go(self, b):\n        x = 2\n        return b\n",
		},
		{
			name: "definition replaces its namesake", path: "a.py", file: pyFile, shape: ShapeDefinition,
			code: "def two():\n    return 22\n",
			want: strings.Replace(pyFile, "return 2\n", "return 22\n", 1),
		},
		{
			name: "method as a definition", path: "a.py", file: pyFile, shape: ShapeDefinition,
			code: "    def stop(self):\n        print('bye')\n",
			want: strings.Replace(pyFile, "        pass\n", "        print('bye')\n", 1),
		},
		{
			name: "whole file", path: "a.py", file: pyFile, shape: ShapeWholeFile,
			code: "import sys\n\n\ndef one():\n    return 1\n\n\nclass Server:\n    pass\n\n\ndef two():\n    return 2\n",
			want: "import sys\n\n\ndef one():\n    return 1\n\n\nclass Server:\n    pass\n\n\ndef two():\n    return 2\n",
		},
		{
			name: "one function is not the whole file", path: "b.py", file: "import os\n\n\ndef f():\n    return 1\n", shape: ShapeDefinition,
			code: "def f():\n    return 2\n",
			want: "import os\n\n\ndef f():\n    return 2\n",
		},
		{
			name: "new definition is never appended", path: "a.py", file: pyFile, kind: KindNotFound,
			code: "def three():\n    return 3\n",
		},
		{
			name: "snippet naming nothing", path: "a.py", file: pyFile, kind: KindNotFound,
			code: "print('hello')\n",
		},
		{
			name: "two namesakes", path: "c.py", file: "class A:\n    def go(self):\n        pass\n\n\nclass B:\n    def go(self):\n        pass\n", kind: KindAmbiguous,
			code: "def go(self):\n    return 1\n",
		},
		{
			name: "lazy stretch with no place", path: "a.py", file: pyFile, kind: KindNotFound,
			code: "# ... existing code ...\ndef nowhere():\n    pass\n# ... existing code ...\n",
		},
		{
			name: "no grammar, markers by equal lines", path: "notes.txt", file: "alpha\nbeta\ngamma\ndelta\n", shape: ShapeLazy,
			code: "// ... existing code ...\nbeta\nBETA2\ngamma\n// ... existing code ...\n",
			want: "alpha\nbeta\nBETA2\ngamma\ndelta\n",
		},
		{
			name: "no grammar, no marker", path: "notes.txt", file: "alpha\nbeta\n", kind: KindNotFound,
			code: "beta\n",
		},
		{
			name: "new file", path: "new.py", shape: ShapeWholeFile,
			code: "x = 1\n", want: "x = 1\n",
		},
		{
			name: "markers on a new file", path: "new.py", kind: KindMissingFile,
			code: "# ... existing code ...\nx = 1\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fsys := MapFS{}
			if tc.file != "" {
				fsys[tc.path] = tc.file
			}
			plan := runSnippet(t, fsys, snippetBlock(tc.path, tc.code))
			if tc.want == "" {
				if plan.OK() {
					t.Fatalf("applied; want refused (%s):\n%s", tc.kind, content(plan, tc.path))
				}
				if plan.Problems[0].Kind != tc.kind {
					t.Errorf("refused as %s (%s), want %s", plan.Problems[0].Kind, plan.Problems[0].Message, tc.kind)
				}
				t.Log(plan.Problems[0].Message)
				return
			}
			if !plan.OK() {
				t.Fatalf("refused: %v", plan.Problems)
			}
			if got := content(plan, tc.path); got != tc.want {
				t.Errorf("file after:\n%s\nwant:\n%s", got, tc.want)
			}
			if plan.Blocks[0].Shape != tc.shape {
				t.Errorf("shape %s, want %s", plan.Blocks[0].Shape, tc.shape)
			}
			// Twice: the file as written holds what the block resolves to.
			again := runSnippet(t, MapFS{tc.path: tc.want}, snippetBlock(tc.path, tc.code))
			if !again.OK() || again.Blocks[0].Status != StatusApplied {
				t.Errorf("second run: status %s, problems %v; want applied", again.Blocks[0].Status, again.Problems)
			}
		})
	}
}

// TestWithoutLeads: a doc comment an outline lists both as an item and as
// its definition's lead lines goes with the definition only.
func TestWithoutLeads(t *testing.T) {
	items := []Item{
		{Lead: 0, Start: 0, End: 1},                                 // a marker
		{Lead: 2, Start: 2, End: 3},                                 // "// one"
		{Lead: 3, Start: 3, End: 4},                                 // "// two"
		{Lead: 2, Start: 4, End: 8, Kind: "method", Name: "divide"}, // its lead: both comments
		{Lead: 9, Start: 9, End: 10},
	}
	got := withoutLeads(items)
	if len(got) != 3 || got[1].Name != "divide" {
		t.Errorf("kept %+v; want the marker, divide and the last item", got)
	}
}

// TestWithoutLeadsRemembers: an outline remembered as free of lead items
// is the same items, not one that starts at the same place: a longer
// outline over the same array is read again.
func TestWithoutLeadsRemembers(t *testing.T) {
	items := []Item{
		{Lead: 0, Start: 0, End: 1},
		{Lead: 2, Start: 2, End: 3},                                 // "// doc"
		{Lead: 2, Start: 3, End: 8, Kind: "method", Name: "divide"}, // its lead: the comment
	}
	for range 2 {
		if got := withoutLeads(items[:2]); len(got) != 2 {
			t.Fatalf("kept %+v of two items with no lead lines", got)
		}
	}
	if got := withoutLeads(items); len(got) != 2 || got[1].Name != "divide" {
		t.Errorf("kept %+v; want the first item and divide", got)
	}
}

func content(p *Plan, path string) string {
	for _, f := range p.Files {
		if f.Path == path {
			return string(f.Bytes())
		}
	}
	return ""
}

func TestSnippetLineRanges(t *testing.T) {
	file := "1\n2\n3\n4\n5\n6\n"
	a := Block{Number: 1, Path: "r.txt", Op: OpSnippet, Dialect: DialectChat, Replace: "two\n", FromLine: 2, ToLine: 2}
	b := Block{Number: 2, Path: "r.txt", Op: OpSnippet, Dialect: DialectChat, Replace: "five\nfive.5\n", FromLine: 5, ToLine: 5}
	a2 := a
	a2.Replace = "two\nthree-ish\n"
	a2.ToLine = 3
	plan := runSnippet(t, MapFS{"r.txt": file}, a2, b)
	if !plan.OK() {
		t.Fatalf("refused: %v", plan.Problems)
	}
	if got, want := content(plan, "r.txt"), "1\ntwo\nthree-ish\n4\nfive\nfive.5\n6\n"; got != want {
		t.Errorf("got %q, want %q: the second range must not shift", got, want)
	}
	past := Block{Number: 1, Path: "r.txt", Op: OpSnippet, Dialect: DialectChat, Replace: "x\n", FromLine: 6, ToLine: 9}
	if plan := runSnippet(t, MapFS{"r.txt": file}, past); plan.OK() {
		t.Error("a range past the end of the file applied")
	}
}

// TestRevertSnippet: a chat snippet holds only its new text, so its
// revert is refused as irreversible, never guessed.
func TestRevertSnippet(t *testing.T) {
	b := snippetBlock("a.py", "def two():\n    return 22\n")
	after := strings.Replace(pyFile, "return 2\n", "return 22\n", 1)
	plan := Revert(&Patch{Blocks: []Block{b}}, MapFS{"a.py": after}, Options{Outline: indentOutline})
	if plan.OK() || plan.Problems[0].Kind != KindIrreversible {
		t.Fatalf("revert: %v; want irreversible", plan.Problems)
	}
}
