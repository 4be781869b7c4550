package treesitter

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// pyClasses is a Python file of n classes with two methods each.
func pyClasses(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "class C%d:\n    def get(self, key):\n        value = self.items[key]\n        if value is None:\n            raise KeyError(key)\n        return value\n\n", i)
		fmt.Fprintf(&b, "    def put(self, key, value):\n        self.items[key] = value  # %d\n\n\n", i)
	}
	return b.String()
}

func TestWindowsForPythonMethod(t *testing.T) {
	src := pyClasses(3)
	after, r := edit(t, src, "        self.items[key] = value  # 1\n", "        self.items[key] = value + 1  # 1\n")
	ws, ok := windowsFor([]byte(after), alignEdits([]byte(src), []byte(after), [][2]int{r}), MaxSyntaxCheck)
	if !ok || len(ws) != 1 {
		t.Fatalf("%d windows", len(ws))
	}
	w := ws[0]
	got := after[w.aStart:w.aEnd]
	if !strings.HasPrefix(got, "    def put(self, key, value):\n") || strings.Contains(got, "class") || w.indent != 4 {
		t.Errorf("window (indent %d):\n%s", w.indent, got)
	}
	if before := src[w.bStart:w.bEnd]; before != strings.Replace(got, "value + 1", "value", 1) {
		t.Errorf("before window:\n%s", before)
	}
}

func TestWindowsForGoFunctionTakesItsClosingBrace(t *testing.T) {
	src := "package a\n\nfunc a() int {\n\tx := 1\n\treturn x\n}\n\nfunc b() {}\n"
	after, r := edit(t, src, "\tx := 1\n", "\tx := 2\n")
	ws, ok := windowsFor([]byte(after), alignEdits([]byte(src), []byte(after), [][2]int{r}), MaxSyntaxCheck)
	if !ok || len(ws) != 1 || after[ws[0].aStart:ws[0].aEnd] != "func a() int {\n\tx := 2\n\treturn x\n}\n" {
		t.Fatalf("windows %+v", ws)
	}
}

func TestDedentMapsBothWays(t *testing.T) {
	text := []byte("class A:\n    def f(self):\n        return 1\n\n    x = 2\n")
	win, m := dedent(text, bytes.IndexByte(text, '\n')+1, len(text), 4)
	if string(win) != "def f(self):\n    return 1\n\nx = 2\n" {
		t.Fatalf("window %q", win)
	}
	for _, off := range []int{bytes.Index(text, []byte("return")), bytes.Index(text, []byte("x = 2")), bytes.Index(text, []byte("def"))} {
		w := m.toWindow(off)
		if back := m.toFile(w); back != off {
			t.Errorf("offset %d -> %d -> %d", off, w, back)
		}
		if win[w] != text[off] {
			t.Errorf("offset %d: %q in the window, %q in the file", off, win[w], text[off])
		}
	}
}

func TestWindowSyntaxErrorInABigFile(t *testing.T) {
	// Far over MaxSyntaxCheck: only the method around the edit is parsed,
	// and the error is reported at its line in the file.
	src := pyClasses(4000)
	if len(src) <= MaxSyntaxCheck {
		t.Fatalf("file of %d bytes", len(src))
	}
	old := "        self.items[key] = value  # 3000\n"
	after, r := edit(t, src, old, "        self.items[key = value  # 3000\n")
	want := strings.Count(src[:strings.Index(src, old)], "\n") + 1
	errs := DefaultCache.SyntaxErrors("big.py", []byte(src), []byte(after), [][2]int{r})
	if len(errs) != 1 || errs[0].Line != want {
		t.Fatalf("got %+v, want one error at line %d", errs, want)
	}
	if line := after[errs[0].StartByte:]; !strings.HasPrefix(line, "self.items[key") && !strings.HasPrefix(line, "[key") && !strings.HasPrefix(line, "key") {
		t.Errorf("error at %q", line[:min(len(line), 30)])
	}
	// A clean edit there reports nothing.
	after, r = edit(t, src, old, "        self.items[key] = value * 2  # 3000\n")
	if errs := DefaultCache.SyntaxErrors("big.py", []byte(src), []byte(after), [][2]int{r}); len(errs) != 0 {
		t.Errorf("clean edit: %+v", errs)
	}
}

func TestWindowNotAFileFallsBackToTheWholeFile(t *testing.T) {
	// A Java method is no file of its own: both windows have errors, and
	// the whole file decides.
	src := "class A {\n    int f() {\n        return 1;\n    }\n\n    int g() {\n        return 2;\n    }\n}\n"
	after, r := edit(t, src, "        return 2;\n", "        return (2;\n")
	errs := DefaultCache.SyntaxErrors("A.java", []byte(src), []byte(after), [][2]int{r})
	if len(errs) != 1 || errs[0].Line != 7 {
		t.Fatalf("got %+v", errs)
	}
	after, r = edit(t, src, "        return 2;\n", "        return 3;\n")
	if errs := DefaultCache.SyntaxErrors("A.java", []byte(src), []byte(after), [][2]int{r}); len(errs) != 0 {
		t.Errorf("clean edit: %+v", errs)
	}
}

func TestWindowParsesOnlyTheWindow(t *testing.T) {
	src := pyClasses(200)
	after, r := edit(t, src, "        self.items[key] = value  # 150\n", "        self.items[key] = value - 1  # 150\n")
	errs, ok := windowSyntaxErrors(context.Background(), DefaultParseTimeout, theRegistry().byName["python"], "a.py", []byte(src), []byte(after), alignEdits([]byte(src), []byte(after), [][2]int{r}))
	if !ok || len(errs) != 0 {
		t.Fatalf("ok %v, errs %+v", ok, errs)
	}
}

func BenchmarkSyntaxCheckWindowed(b *testing.B) {
	src := pyClasses(2000)
	after, r := strings.Replace(src, "value  # 1500\n", "value + 1  # 1500\n", 1), [2]int{}
	r[0] = strings.Index(after, "value + 1  # 1500")
	r[1] = r[0] + 10
	b.SetBytes(int64(len(after)))
	for b.Loop() {
		if errs := DefaultCache.SyntaxErrors("a.py", []byte(src), []byte(after), [][2]int{r}); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

func TestWholeFilesAndWindowsAgree(t *testing.T) {
	src := pyClasses(50)
	after, r := edit(t, src, "        self.items[key] = value  # 30\n", "        self.items[key] = (value  # 30\n")
	whole := NewCache(4)
	whole.WholeFiles = true
	a := whole.SyntaxErrors("a.py", []byte(src), []byte(after), [][2]int{r})
	b := NewCache(4).SyntaxErrors("a.py", []byte(src), []byte(after), [][2]int{r})
	if len(a) == 0 || len(a) != len(b) || a[0].Line != b[0].Line {
		t.Errorf("whole files %+v, windows %+v", a, b)
	}
}

func TestLineOffsets(t *testing.T) {
	text := []byte("a\nbb\n\nccc")
	got := lineOffsets(text, []int{3, 0, 1, 2, 9})
	want := map[int]int{0: 0, 1: 2, 2: 5, 3: 6, 9: len(text)}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("line %d at %d, want %d", k, got[k], v)
		}
	}
}

func TestWindowOverBudgetGivesUp(t *testing.T) {
	// Every line indented: no line above the edit starts a definition, so
	// the window would be the whole file; past the budget it is refused
	// (and a big file is then not checked at all).
	src := strings.Repeat("    x = 1\n", 10000)
	mid := len(src) / 2
	after := src[:mid] + "    y = 2\n" + src[mid:]
	regions := alignEdits([]byte(src), []byte(after), [][2]int{{mid, mid + 10}})
	if _, ok := windowsFor([]byte(after), regions, 4096); ok {
		t.Error("a window of the whole file was accepted")
	}
	if ws, ok := windowsFor([]byte(after), regions, len(after)); !ok || len(ws) != 1 || ws[0].aStart != 0 || ws[0].aEnd != len(after) {
		t.Errorf("with room: %+v %v", ws, ok)
	}
}

func TestWholeFilesCacheUsesWindowsForBigFiles(t *testing.T) {
	src := pyClasses(4000)
	old := "        self.items[key] = value  # 3000\n"
	after, r := edit(t, src, old, "        self.items[key = value  # 3000\n")
	c := NewCache(4)
	c.WholeFiles = true
	c.Timeout = time.Millisecond // a whole parse of 600 KB would give up
	errs := c.SyntaxErrors("big.py", []byte(src), []byte(after), [][2]int{r})
	if want := strings.Count(src[:strings.Index(src, old)], "\n") + 1; len(errs) != 1 || errs[0].Line != want {
		t.Fatalf("got %+v, want one error at line %d", errs, want)
	}
}

func TestWindowErrorLineIsTheWholeFilesLine(t *testing.T) {
	// The ERROR node starts at "x = [" above the edit; a whole-file parse
	// reports the edited line, and so must the window.
	src := "class A:\n    def f(self):\n        x = [\n            1,\n        ]\n        y = 2\n"
	after, r := edit(t, src, "        ]\n", "        z = 3\n")
	whole := NewCache(4)
	whole.WholeFiles = true
	a := whole.SyntaxErrors("a.py", []byte(src), []byte(after), [][2]int{r})
	b := NewCache(4).SyntaxErrors("a.py", []byte(src), []byte(after), [][2]int{r})
	if len(a) != 1 || a[0].Line != 5 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("whole file %+v\nwindows    %+v", a, b)
	}
}
