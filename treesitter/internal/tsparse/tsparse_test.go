package tsparse

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"

	"github.com/fsrb/fsrb/bench/gen"
)

// bindingVersion is the version of the binding whose runtime
// runtime/parser.c and its headers were copied from (README.md). The copy
// shares the binding's structures and links against its functions: a
// copy from another version would corrupt them.
const bindingVersion = "v0.0.0-20240827094217-dd81d9e9be82"

func TestBindingVersion(t *testing.T) {
	mod, err := os.ReadFile(filepath.Join("..", "..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(mod), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "github.com/smacker/go-tree-sitter" {
			if f[1] != bindingVersion {
				t.Fatalf("go.mod requires the binding at %s, but runtime/ is copied from %s: copy parser.c and its headers again from the new version and re-apply the change (README.md)", f[1], bindingVersion)
			}
			return
		}
	}
	t.Fatal("go.mod does not require the binding")
}

// TestBindingLayout holds the fields of the binding's types that the
// package reads and writes without an accessor.
func TestBindingLayout(t *testing.T) {
	bt := reflect.TypeOf(sitter.BaseTree{})
	if f := bt.Field(0); f.Name != "c" || f.Type.Kind() != reflect.Pointer || f.Offset != 0 {
		t.Errorf("BaseTree's first field is %s %v, want c, a pointer", f.Name, f.Type)
	}
	lt := reflect.TypeOf(sitter.Language{})
	if lt.NumField() != 1 || lt.Field(0).Type.Kind() != reflect.UnsafePointer {
		t.Errorf("Language is %v, want one unsafe.Pointer", lt)
	}
	tt := reflect.TypeOf(sitter.Tree{})
	if f, ok := tt.FieldByName("cache"); !ok || f.Type.Kind() != reflect.Map {
		t.Errorf("Tree has no cache map")
	}
	if unsafe.Sizeof(uintptr(0)) != sizeofSizeT {
		t.Errorf("size_t is not a uintptr: the cancellation flag is written as one")
	}
}

// TestReparseReuses edits one line near the top of a Python file and
// reparses: the reparse lexes around the edit, not the rest of the file.
// With the binding's parser it lexed every token after the edited method.
func TestReparseReuses(t *testing.T) {
	lines := gen.Code(500, 500)
	src := []byte(gen.JoinLines(lines))
	at := 0
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "        return ") {
			at = i
			break
		}
	}
	lines[at] += "  # changed"
	next := []byte(gen.JoinLines(lines))
	p := New(python.GetLanguage())
	defer p.Close()
	p.CountLexed()
	old, err := p.Parse(context.Background(), time.Second, nil, src)
	if err != nil {
		t.Fatal(err)
	}
	fresh := p.Lexed()
	start := len(gen.JoinLines(lines[:at])) + len(lines[at]) - len("  # changed")
	old.Edit(sitter.EditInput{
		StartIndex: uint32(start), OldEndIndex: uint32(start), NewEndIndex: uint32(start + len("  # changed")),
		StartPoint:  sitter.Point{Row: uint32(at), Column: uint32(len(lines[at]) - len("  # changed"))},
		OldEndPoint: sitter.Point{Row: uint32(at), Column: uint32(len(lines[at]) - len("  # changed"))},
		NewEndPoint: sitter.Point{Row: uint32(at), Column: uint32(len(lines[at]))},
	})
	nt, err := p.Parse(context.Background(), time.Second, old, next)
	if err != nil {
		t.Fatal(err)
	}
	again := p.Lexed() - fresh
	t.Logf("a fresh parse lexed %d tokens, the reparse %d", fresh, again)
	if again*20 > fresh {
		t.Errorf("the reparse of a one-line edit at line %d of %d lexed %d tokens; the whole file has %d", at+1, len(lines), again, fresh)
	}
	want, err := sitter.ParseCtx(context.Background(), next, python.GetLanguage())
	if err != nil {
		t.Fatal(err)
	}
	if got := nt.RootNode().String(); got != want.String() {
		t.Error("the reparsed tree differs from a fresh parse")
	}
}

// TestCancel stops a parse by its context.
func TestCancel(t *testing.T) {
	p := New(python.GetLanguage())
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Parse(ctx, time.Second, nil, []byte("x = 1\n")); err != context.Canceled {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestTimeout stops a parse that runs out of time.
func TestTimeout(t *testing.T) {
	p := New(python.GetLanguage())
	defer p.Close()
	src := []byte(strings.Repeat(gen.JoinLines(gen.Code(500, 1)), 20))
	if _, err := p.Parse(context.Background(), time.Microsecond, nil, src); err != context.DeadlineExceeded {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
}

// TestCancelAfterParse cancels contexts as their parses end: the watcher
// of a finished parse never writes the flag of a parser closed or used
// again (run with -race).
func TestCancelAfterParse(t *testing.T) {
	src := []byte(gen.JoinLines(gen.Code(50, 2)))
	for i := 0; i < 200; i++ {
		p := New(python.GetLanguage())
		ctx, cancel := context.WithCancel(context.Background())
		go cancel()
		_, err := p.Parse(ctx, time.Second, nil, src)
		if err != nil && err != context.Canceled {
			t.Fatal(err)
		}
		// The flag is clear again: the next parse runs to its end.
		if _, err := p.Parse(context.Background(), time.Second, nil, src); err != nil {
			t.Fatalf("parse after a cancelled one: %v", err)
		}
		p.Close()
	}
}
