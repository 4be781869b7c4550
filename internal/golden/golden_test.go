package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// recorder is a test that keeps its errors instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func TestCheck(t *testing.T) {
	file := filepath.Join(t.TempDir(), "case.txtar")
	text := "comment\n-- in --\ninput\n-- out --\nold\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{"out": "new\n", "err": "oops\n"}

	r := &recorder{TB: t}
	Check(r, file, txtar.Parse([]byte(text)), got, false, "-update")
	if len(r.errs) != 2 || !strings.Contains(r.errs[0], "section out differs") || !strings.Contains(r.errs[1], "no err section; -update adds it") {
		t.Errorf("errors %q, want out differing and err missing", r.errs)
	}
	if data, _ := os.ReadFile(file); string(data) != text {
		t.Errorf("without update the file changed:\n%s", data)
	}

	r = &recorder{TB: t}
	Check(r, file, txtar.Parse([]byte(text)), got, true, "-update")
	want := "comment\n-- in --\ninput\n-- out --\nnew\n-- err --\noops\n"
	if data, _ := os.ReadFile(file); len(r.errs) != 0 || string(data) != want {
		t.Errorf("with update: errors %q, file:\n%s\nwant:\n%s", r.errs, data, want)
	}
	r = &recorder{TB: t}
	Check(r, file, txtar.Parse([]byte(want)), got, false, "-update")
	if len(r.errs) != 0 {
		t.Errorf("after the update: %q", r.errs)
	}
}
