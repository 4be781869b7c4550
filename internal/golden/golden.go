// Package golden runs tests over txtar archives that hold both a case and
// what the code must make of it, in sections: Each runs a test on every
// archive, Check compares the test's output with those sections, or
// rewrites them when asked. Only tests import it.
package golden

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// Each runs fn on every archive pattern matches, each in a subtest named
// for its file without ".txtar". No archive at all fails the test: a
// pattern that matches nothing would otherwise pass with nothing checked.
func Each(t *testing.T, pattern string, fn func(t *testing.T, file string, ar *txtar.Archive)) {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases match %s: %v", pattern, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, file, ar)
		})
	}
}

// Check compares got, a section's name to the text the test made of the
// case, with the sections of ar, the archive read from file. A section
// that differs or is missing fails the test, and the message names flag,
// the test's flag that rewrites it. With update, Check rewrites the
// sections of got instead (a missing one is added at the end, in name
// order) and writes file back when one changed.
func Check(t testing.TB, file string, ar *txtar.Archive, got map[string]string, update bool, flag string) {
	t.Helper()
	left := map[string]bool{}
	for name := range got {
		left[name] = true
	}
	changed := false
	for i, f := range ar.Files {
		want, ok := got[f.Name]
		if !ok || !left[f.Name] {
			continue
		}
		delete(left, f.Name)
		if update {
			changed = changed || string(f.Data) != want
			ar.Files[i].Data = []byte(want)
		} else if diff := cmp.Diff(string(f.Data), want); diff != "" {
			t.Errorf("section %s differs (-want +got; %s rewrites it):\n%s", f.Name, flag, diff)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(left)) {
		if !update {
			t.Errorf("%s has no %s section; %s adds it", file, name, flag)
			continue
		}
		changed = true
		ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(got[name])})
	}
	if changed {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
