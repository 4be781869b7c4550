package core

import "testing"

func TestFileName(t *testing.T) {
	for _, tc := range []struct {
		line, want string
	}{
		{"LICENSE", "LICENSE"},
		{"CODEOWNERS", "CODEOWNERS"},
		{"Procfile", "Procfile"},
		{"**Dockerfile**", "Dockerfile"},
		{"`Makefile`:", "Makefile"},
		{"Jenkinsfile", "Jenkinsfile"},
		{"Done", ""},
		{"Here", ""},
		{"file", ""},
		{"OK", ""},
		{"Run this", ""},
	} {
		if got, _ := fileName(tc.line); got != tc.want {
			t.Errorf("fileName(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestProsePath(t *testing.T) {
	exists := func(p string) bool { return p == "app.py" || p == "Makefile" }
	for _, tc := range []struct {
		line, want string
	}{
		{"In `src/util.py`, change:", "src/util.py"},
		{"First, in `src/app.py`:", "src/app.py"},
		{"In `./src/app.py`:", "src/app.py"},
		{"In `app.py`, replace `os.path` with `pathlib`:", "app.py"},
		{"Update `Makefile`:", "Makefile"},
		{"Set `config.DEBUG`:", ""},
		{"Change `foo()` in the same file:", ""},
		{"Move `src/a.py` to `src/b.py`:", ""},
		{"Now the new helper in `lib/` folder:", ""},
		{"No backticks here: src/app.py", ""},
	} {
		got := ""
		if at, n, ok := prosePath(tc.line, exists); ok {
			got = tc.line[at : at+n]
		}
		if got != tc.want {
			t.Errorf("prosePath(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}
