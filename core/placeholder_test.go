package core

import (
	"strings"
	"testing"
)

func TestOmission(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		// Placeholders.
		{"# ... rest of the code unchanged ...", true},
		{"    // ... existing code ...", true},
		{"// ...existing code...", true},
		{"/* ... */", true},
		{"/** ... */", true},
		{"<!-- ... -->", true},
		{"<!-- rest of the page unchanged -->", true},
		{"{/* ... other components ... */}", true},
		{"(rest of methods ...)", true},
		{"(Rest Of Methods ...)", true},
		{"[... existing code ...]", true},
		{"// rest of file unchanged", true},
		{"# Rest of the file is unchanged.", true},
		{"// existing code", true},
		{"// existing code here", true},
		{"-- rest of the query unchanged", true},
		{";; ... more functions ...", true},
		{"# (unchanged)", true},
		{"// other methods unchanged", true},
		{"// ... 200 more lines ...", true},
		{"...", true},
		{"    …", true},
		{"// ...", true},
		{"# ...", true},
		{"... rest of the file ...", true},
		{"rest of methods ...", true},
		{"// code omitted for brevity", true},
		{"// same as before", true},
		{"// ... rest of the reducer unchanged ...", true},
		// Code and ordinary comments.
		{"", false},
		{"...args", false},
		{"  ...rest,", false},
		{"return {...state, done: true}", false},
		{"func f(args ...int) {", false},
		{"	fmt.Println(xs...)", false},
		{"..Default::default()", false},
		{"// TODO", false},
		{"// TODO: handle errors", false},
		{"# Existing users keep their plan", false},
		{"// Existing methods", false},
		{"// remaining budget", false},
		{"# the rest of the array is padding", false},
		{"// unchanged since v1", false},
		{"// ... wait for it ...", false},
		{"more details below", false},
		{"More details below.", false},
		{"(more details below)", false},
		{"The rest of the file is unchanged.", false},
		{"// Loading...", false},
		{"print('...')", false},
		{"---", false},
		{"<!-- -->", false},
		{"#", false},
		{"// and so on...", false},
		{"x = 1  # rest of the code unchanged", false},
	} {
		if got := omission(tc.line); got != tc.want {
			t.Errorf("omission(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

func TestCutKeep(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"// ... existing code ... fsrb:keep", "// ... existing code ..."},
		{"    ... fsrb:keep", "    ..."},
		{"<!-- ... -->  fsrb:keep  ", "<!-- ... -->"},
		{"x = 1 fsrb:keep", "x = 1 fsrb:keep"}, // not a placeholder: text, kept whole
		{"//...fsrb:keep", "//...fsrb:keep"},   // no space before the marker
		{"fsrb:keep", "fsrb:keep"},
	} {
		if got, _ := cutKeep(tc.line); got != tc.want {
			t.Errorf("cutKeep(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestPlaceholderLine(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		search, replace, matched string
		literal                  []int
		want                     int
	}{
		{"ellipsis that SEARCH holds", "def f():\n    ...\n", "def f(x):\n    ...\n", "def f():\n    ...\n", nil, -1},
		{"ellipsis SEARCH lacks", "def f():\n    return 1\n", "def f():\n    ...\n", "def f():\n    return 1\n", nil, 1},
		{"ellipsis in a new file", "", "class P:\n    ...\n", "", nil, -1},
		{"comment in a new file", "", "x = 1\n# ... rest of the code ...\n", "", nil, 1},
		{"placeholder the file holds", "a\n", "b\n// ... existing code ...\n", "a\n  // ... existing code ...\n", nil, -1},
		{"marked literal", "a\n", "a\n// ... existing code ...\n", "a\n", []int{1}, -1},
	} {
		b := &Block{Search: tc.search, Replace: tc.replace, Literal: tc.literal}
		if got, _ := placeholderLine(b, tc.replace, tc.matched); got != tc.want {
			t.Errorf("%s: placeholderLine = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestKeepLiterals(t *testing.T) {
	b := &Block{Replace: "a\n    ... fsrb:keep\nb fsrb:keep\n"}
	keepLiterals(b)
	if b.Replace != "a\n    ...\nb fsrb:keep\n" || len(b.Literal) != 1 || b.Literal[0] != 1 {
		t.Errorf("keepLiterals: Replace %q, Literal %v", b.Replace, b.Literal)
	}
	if i, _ := placeholderLine(b, b.Replace, "a\nx\n"); i >= 0 {
		t.Errorf("a literal line refused: %d", i)
	}
	if !strings.Contains(b.Replace, "...") {
		t.Error("the literal line is gone")
	}
}
