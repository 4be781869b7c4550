package treesitter

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// stmtCase is an edit of a Python file: src with old replaced by new.
type stmtCase struct {
	name          string
	src, old, new string
	small         bool // statement windows settle it (clean, no definition window parsed)
}

var stmtCases = []stmtCase{
	{name: "one changed line in a method", small: true,
		src: pyClasses(3), old: "        self.items[key] = value  # 1\n", new: "        self.items[key] = value + 1  # 1\n"},
	{name: "a block's unchanged lines are not parsed", small: true,
		src: "def f(a):\n    x = a\n    if x:\n        y = 1\n    return x\n",
		old: "    x = a\n    if x:\n", new: "    x = a  # changed\n    if x:\n"},
	{name: "broken line",
		src: pyClasses(3), old: "        self.items[key] = value  # 1\n", new: "        self.items[key = value  # 1\n"},
	{name: "statement replacing a decorated def",
		src: "class A:\n    @property\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n",
		old: "    def f(self):\n        return 1\n", new: "    x = 1\n"},
	{name: "decorator edited", small: true,
		src: "class A:\n    @property\n    def f(self):\n        return 1\n", old: "    @property\n", new: "    @staticmethod\n"},
	{name: "nested class", small: true,
		src: "class A:\n    class B:\n        def f(self):\n            x = 1\n            return x\n\n    def g(self):\n        pass\n",
		old: "            x = 1\n", new: "            x = 2\n"},
	{name: "nested class broken",
		src: "class A:\n    class B:\n        def f(self):\n            x = 1\n            return x\n\n    def g(self):\n        pass\n",
		old: "            x = 1\n", new: "            x = (1\n"},
	{name: "closing bracket removed, error just above the window",
		src: "def f():\n    x = [\n        1,\n    ]\n    y = 2\n", old: "    ]\n", new: "    z = 3\n"},
	{name: "closing bracket of the line above removed",
		src: "def f():\n    x = foo(a,\n            b)\n    y = 2\n", old: "            b)\n", new: "            b\n"},
	{name: "line inside brackets",
		src: "def f():\n    x = foo(\n        a,\n    )\n    y = 2\n", old: "        a,\n", new: "        a = 1,\n"},
	{name: "quote added inside a docstring",
		src: "def f():\n    \"\"\"Doc.\n    more\n    \"\"\"\n    return 1\n", old: "    more\n", new: "    more \"\"\"\n"},
	{name: "docstring line", src: "def f():\n    \"\"\"Doc.\n    more\n    \"\"\"\n    return 1\n", old: "    more\n", new: "    less\n"},
	// tree-sitter's Python takes "else: x = 2" for an annotated
	// assignment, in the window and in the file alike.
	{name: "header replaced, its else left", small: true,
		src: "def f(a):\n    if a:\n        x = 1\n    else:\n        x = 2\n    return x\n", old: "    if a:\n", new: "    z = 0\n"},
	{name: "last statement of a body before else", small: true,
		src: "def f(a):\n    if a:\n        x = 1\n    else:\n        x = 2\n    return x\n", old: "        x = 1\n", new: "        x = 3\n"},
	{name: "body emptied into a comment",
		src: "def f(a):\n    if a:\n        x = 1\n    return a\n", old: "        x = 1\n", new: "        # nothing\n"},
	{name: "statement inserted under a header at its level",
		src: "def f(a):\n    if a:\n        x = 1\n    return a\n", old: "    if a:\n", new: "    if a:\n    z = 1\n"},
	// The old lines were a body's: the new ones at the header's level
	// could leave it empty, so the definition window decides.
	{name: "statement moved out of its block",
		src: "def f(a):\n    if a:\n        x = 1\n        y = 2\n    return a\n", old: "        y = 2\n", new: "    y = 2\n"},
	{name: "else clause edited",
		src: "def f(a):\n    try:\n        x = 1\n    except KeyError:\n        x = 2\n    return x\n", old: "    except KeyError:\n", new: "    except (KeyError:\n"},
	{name: "CRLF", small: true,
		src: "def f(a):\r\n    x = a\r\n    return x\r\n", old: "    x = a\r\n", new: "    x = a + 1\r\n"},
	{name: "CRLF broken",
		src: "def f(a):\r\n    x = a\r\n    return x\r\n", old: "    x = a\r\n", new: "    x = (a\r\n"},
	{name: "no final newline", small: true,
		src: "def f(a):\n    x = a\n    return x", old: "    return x", new: "    return x + 1"},
	{name: "no final newline broken",
		src: "def f(a):\n    x = a\n    return x", old: "    return x", new: "    return (x"},
	{name: "backslash continuation",
		src: "def f(a):\n    x = a + \\\n        1\n    return x\n", old: "        1\n", new: "        1)\n"},
	{name: "tabs",
		src: "def f(a):\n\tx = a\n\treturn x\n", old: "\tx = a\n", new: "\tx = a + 1\n"},
	{name: "string opened",
		src: "def f(a):\n    x = a\n    return x\n", old: "    x = a\n", new: "    x = 'a\n"},
	// Edits that keep the statement's tokens settle without a parse
	// (stmtalike.go); those that do not are parsed.
	{name: "name renamed", small: true,
		src: "def f(a):\n    x = a\n    return x\n", old: "    x = a\n", new: "    value = a  # renamed\n"},
	{name: "string's words changed", small: true,
		src: "def f(a):\n    x = 'a b'\n    return x\n", old: "    x = 'a b'\n", new: "    x = 'c \\' d'\n"},
	{name: "except clause's exception renamed", small: true,
		src: "def f(a):\n    try:\n        x = 1\n    except KeyError:\n        x = 2\n    return x\n", old: "    except KeyError:\n", new: "    except ValueError:  # narrower\n"},
	{name: "name turned into a keyword",
		src: "def f(a):\n    x = a\n    return x\n", old: "    x = a\n", new: "    return = a\n"},
	{name: "a second string after the first",
		src: "def f(a):\n    x = 'a'\n    return x\n", old: "    x = 'a'\n", new: "    x = 'a'b'\n"},
	{name: "number no longer one",
		src: "def f(a):\n    x = 1\n    return x\n", old: "    x = 1\n", new: "    x = 1x\n"},
	{name: "operator split",
		src: "def f(a):\n    x = a ** 2\n    return x\n", old: "    x = a ** 2\n", new: "    x = a * * 2\n"},
}

// TestStatementWindowsAgree checks that statement windows change no
// result: the errors found with them are the errors found without them
// (definition windows) and by whole-file parses.
func TestStatementWindowsAgree(t *testing.T) {
	for _, c := range stmtCases {
		t.Run(c.name, func(t *testing.T) {
			after, r := edit(t, c.src, c.old, c.new)
			with := NewCache(4).SyntaxErrors("a.py", []byte(c.src), []byte(after), [][2]int{r})
			statementWindows = false
			without := NewCache(4).SyntaxErrors("a.py", []byte(c.src), []byte(after), [][2]int{r})
			statementWindows = true
			whole := NewCache(4)
			whole.WholeFiles = true
			all := whole.SyntaxErrors("a.py", []byte(c.src), []byte(after), [][2]int{r})
			if fmt.Sprint(with) != fmt.Sprint(without) || fmt.Sprint(lines(with)) != fmt.Sprint(lines(all)) {
				t.Errorf("statement windows %+v\ndefinition windows %+v\nwhole file %+v", with, without, all)
			}
			ws, ok := windowsFor([]byte(after), alignEdits([]byte(c.src), []byte(after), [][2]int{r}), MaxSyntaxCheck)
			small := ok && len(ws) == 1 && statementWindowsClean(context.Background(), DefaultParseTimeout, theRegistry().byName["python"], []byte(c.src), []byte(after), ws[0])
			if small != c.small {
				t.Errorf("settled by statement windows: %v, want %v", small, c.small)
			}
		})
	}
}

func TestStatementWindowIsTheEditedStatement(t *testing.T) {
	src := "def f(a):\n    for x in a:\n        y = x\n\n    z = g(a,\n          b)\n    if z:\n        return z\n    return a\n"
	after, r := edit(t, src, "    z = g(a,\n          b)\n", "    z = g(a,\n          c)\n")
	ws, _ := windowsFor([]byte(after), alignEdits([]byte(src), []byte(after), [][2]int{r}), MaxSyntaxCheck)
	al := newLines(pyLexer, []byte(after), ws[0].aStart, ws[0].aEnd)
	bl := newLines(pyLexer, []byte(src), ws[0].bStart, ws[0].bEnd)
	reg := narrowRegion([]byte(src), []byte(after), ws[0].regions[0])
	if got := after[reg.aStart:reg.aEnd]; got != "          c)\n" {
		t.Fatalf("narrowed to %q", got)
	}
	// The changed line continues a statement: no window starts there.
	if _, ok := statementWindow(al, bl, reg, 0, len(after)); ok {
		t.Error("a window starting inside brackets")
	}
	after, r = edit(t, src, "    if z:\n", "    if z is not None:\n")
	ws, _ = windowsFor([]byte(after), alignEdits([]byte(src), []byte(after), [][2]int{r}), MaxSyntaxCheck)
	al = newLines(pyLexer, []byte(after), ws[0].aStart, ws[0].aEnd)
	bl = newLines(pyLexer, []byte(src), ws[0].bStart, ws[0].bEnd)
	s, ok := statementWindow(al, bl, ws[0].regions[0], 0, len(after))
	if !ok || after[s.aStart:s.aEnd] != "    if z is not None:\n        return z\n" || s.indent != 4 {
		t.Errorf("window %q (indent %d), ok %v", after[s.aStart:s.aEnd], s.indent, ok)
	}
}

func TestPyLines(t *testing.T) {
	src := "x = '''a\n(b\n'''\ny = (1,\n  2)  # )\nz = \\\n  3\n@d\nelse:\n"
	var got []string
	for _, l := range pyLines([]byte(src), 0, len(src)) {
		got = append(got, fmt.Sprintf("%v%v%v%v", b01(l.neutral), b01(l.clause), b01(l.deco), b01(l.eof)))
	}
	want := "1000 0000 0000 1000 0000 1000 0000 1010 1100 1001"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

func b01(b bool) int {
	if b {
		return 1
	}
	return 0
}

func BenchmarkSyntaxCheckStatementWindows(b *testing.B) {
	src := pyClasses(200)
	var after strings.Builder
	var ranges [][2]int
	for i, line := range strings.SplitAfter(src, "\n") {
		if strings.Contains(line, "self.items[key] = value") {
			line = strings.Replace(line, "value", "value + 1", 1)
			ranges = append(ranges, [2]int{after.Len(), after.Len() + len(line)})
		}
		_ = i
		after.WriteString(line)
	}
	a := []byte(after.String())
	b.SetBytes(int64(len(a)))
	for b.Loop() {
		if errs := DefaultCache.SyntaxErrors("a.py", []byte(src), a, ranges); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

// The lexer skips the bytes that change nothing by a table; pyLexerRef is
// the byte-by-byte switch it replaced, kept as the test's oracle: both
// give the same lines on random texts of Python's brackets, quotes,
// comments, continuations and colons.
func TestPyLexerIsByteByByte(t *testing.T) {
	rnd := rand.New(rand.NewSource(18))
	const alphabet = "ab :#()[]{}\"'\\\r\t\n  x=:"
	for iter := range 20000 {
		text := make([]byte, rnd.Intn(120))
		for i := range text {
			text[i] = alphabet[rnd.Intn(len(alphabet))]
		}
		lex, ref := pyLexer(text, 0, len(text)), pyLexerRef(text, 0, len(text))
		for n := 0; ; n++ {
			got, gok := lex()
			want, wok := ref()
			if got != want || gok != wok {
				t.Fatalf("iter %d, text %q, line %d: got %+v %v, want %+v %v", iter, text, n, got, gok, want, wok)
			}
			if !gok {
				break
			}
		}
	}
}

func pyLexerRef(text []byte, start, end int) func() (lineInfo, bool) {
	depth, quote, triple, cont, lost := 0, byte(0), false, false, false
	i, done := start, false
	return func() (lineInfo, bool) {
		if done {
			return lineInfo{}, false
		}
		if i >= len(text) {
			done = true
			return lineInfo{start: len(text), neutral: !lost && depth == 0 && quote == 0 && !cont, eof: true}, true
		}
		le := lineEnd(text, i)
		ind, blank := indentAt(text, i)
		li := lineInfo{start: i, indent: ind, neutral: !lost && depth == 0 && quote == 0 && !cont}
		li.tab = bytes.IndexByte(text[i:i+ind], '\t') >= 0
		if li.neutral {
			rest := bytes.TrimRight(text[i+ind:le], " \t\r")
			li.blank = blank || len(rest) == 0 || rest[0] == '#'
			li.clause = !li.blank && pyClause(rest)
			li.deco = !li.blank && rest[0] == '@'
		}
		cont = false
		last := byte(0) // the last byte outside strings and comments
	scan:
		for j := i; j < le; j++ {
			c := text[j]
			if quote != 0 {
				switch {
				case c == '\\':
					j++
				case c == quote && !triple:
					quote = 0
				case c == quote && j+2 < le && text[j+1] == quote && text[j+2] == quote:
					quote, j = 0, j+2
				}
				last = 0
				continue
			}
			switch c {
			case '#':
				break scan
			case '"', '\'':
				triple = j+2 < le && text[j+1] == c && text[j+2] == c
				if triple {
					j += 2
				}
				quote = c
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				if depth--; depth < 0 {
					lost = true
				}
			case '\\':
				if j+1 == le || j+2 == le && text[j+1] == '\r' {
					cont = true
				}
			}
			if c != ' ' && c != '\t' && c != '\r' {
				last = c
			}
		}
		if quote != 0 && !triple {
			lost = true // a string left open at the end of its line
		}
		li.colon = last == ':'
		if i >= end {
			done = true
		}
		i = nextLine(text, i)
		return li, true
	}
}

func TestPyAlike(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		alike bool
	}{
		{"x = a\n", "x = a  # why\n", true},
		{"x = a\n", "total_count = a\n", true},
		{"x=a(b, c)\n", "x = a( b,c )\n", true},
		{"s = 'one'\n", "s = 'two \\' three'\n", true},
		{"s = \"a\"\n", "s = 'a'\n", false},
		{"x = a\n", "x = None\n", false},
		{"x = a\n", "x = print\n", false},
		{"x = 1\n", "x = 2\n", false},
		{"x = a\n", "x = a.b\n", false},
		{"x = a ** b\n", "x = a * * b\n", false},
		{"x = a\n", "    x = a\n", false},
		{"x = a\n", "x = a\n\n", false},
		{"s = f'{a}'\n", "s = f'{b}'\n", false},
		{"s = f'{a}'\n", "t = f'{a}'  # same string\n", true},
		{"s = rb'\\d'\n", "t = rb'\\d'\n", true},
		{"s = f'{a[\"k\"]}'\n", "t = f'{a[\"k\"]}'\n", false},
		{"s = x'a'\n", "t = x'a'\n", false},
		{"s = '''a'''\n", "s = '''b c'''\n", true},
		{"s = '''a\n", "s = '''b\n", false},
		{"s = '''a'''\n", "s = 'a'\n", false},
		{"s = '''a\\'''\n", "s = '''a'''\n", false},
		{"x = a + \\\n", "x = b + \\\n", false},
		{"s = 'a\n", "s = 'b\n", false},
		{"x = a\r\n", "x = b\r\n", true},
	} {
		if got := pyAlike([]byte(c.a), []byte(c.b)); got != c.alike {
			t.Errorf("pyAlike(%q, %q) = %v, want %v", c.a, c.b, got, c.alike)
		}
	}
}

// TestPyAlikeParsesAlike: a line's words replaced at random, by names,
// keywords, strings, numbers and brackets; whenever pyAlike calls the two
// texts alike, tree-sitter finds errors in both or in neither.
func TestPyAlikeParsesAlike(t *testing.T) {
	rnd := rand.New(rand.NewSource(38))
	src := pyClasses(3)
	lines := strings.SplitAfter(src, "\n")
	words := []string{"x", "value", "items", "if", "print", "None", "def", "'s'", `"t"`, "1", "(", ")", "lambda", "_", "match", "type", "f'x'", "# note", "not", "in"}
	c := NewCache(8)
	alike := 0
	for range 3000 {
		i := rnd.Intn(len(lines))
		fields := strings.Fields(lines[i])
		if len(fields) == 0 {
			continue
		}
		k := rnd.Intn(len(fields))
		newLine := strings.Replace(lines[i], fields[k], words[rnd.Intn(len(words))], 1)
		if !pyAlike([]byte(lines[i]), []byte(newLine)) {
			continue
		}
		alike++
		edited := strings.Join(lines[:i], "") + newLine + strings.Join(lines[i+1:], "")
		a, err := c.Parse("a.py", 0, []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := c.Parse("b.py", 0, []byte(edited), nil)
		if err != nil {
			t.Fatal(err)
		}
		if a.HasError() != b.HasError() {
			t.Errorf("%q and %q read alike, but one parses with an error", lines[i], newLine)
		}
	}
	if alike < 100 {
		t.Errorf("only %d edits read alike: the test tries too little", alike)
	}
}
