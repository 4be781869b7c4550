package treesitter

import (
	"strings"
	"testing"
)

func TestLanguageFor(t *testing.T) {
	for _, tc := range []struct {
		path, content, want string
	}{
		{"main.go", "", "go"},
		{"src/App.TSX", "", "tsx"}, // extensions are case-insensitive
		{"a/b/lib.rs", "", "rust"},
		{"x.h", "", "c"},
		{"x.hpp", "", "cpp"},
		{"Gemfile", "", "ruby"},
		{"conf/app.yml", "", "yaml"},
		{"Cargo.lock", "", "toml"},
		{`C:\src\app.py`, "", "python"},
		{"bin/tool", "#!/usr/bin/env python3\nprint(1)\n", "python"},
		{"bin/tool", "#!/usr/bin/python3.12\n", "python"},
		{"bin/tool", "#!/bin/sh\necho hi\n", "bash"},
		{"bin/tool", "#!/usr/bin/env -S node --no-warnings\n", "javascript"},
		{"bin/tool", "#!/usr/bin/env FOO=1 ruby\n", "ruby"},
		{"bin/tool", "#! /usr/bin/lua5.4\n", "lua"},
		{"bin/tool", "#!/usr/bin/env php\n<?php\n", "php"},
		{"script.py", "#!/bin/bash\n", "python"}, // the extension wins
		{"bin/tool", "#!/usr/bin/env perl\n", ""},
		{"bin/tool", "echo hi\n", ""},
		{"notes.txt", "", ""},
		{"Makefile", "", ""},
	} {
		got := ""
		if l := LanguageFor(tc.path, []byte(tc.content)); l != nil {
			got = l.Name
		}
		if got != tc.want {
			t.Errorf("LanguageFor(%q, %q) = %q, want %q", tc.path, firstLine(tc.content), got, tc.want)
		}
	}
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }

func TestRegistryCoversTheIssue(t *testing.T) {
	for _, name := range strings.Fields("go python javascript typescript tsx rust java c cpp csharp ruby php bash lua kotlin swift scala yaml toml html css") {
		if theRegistry().byName[name] == nil {
			t.Errorf("no %s grammar", name)
		}
	}
}

// TestRegistryIndexes builds the index of the real registry: a key two
// grammars claim fails here, not at the first file a run looks up.
func TestRegistryIndexes(t *testing.T) {
	if _, err := indexLanguages(languages); err != nil {
		t.Fatal(err)
	}
}

func TestIndexRejectsDuplicates(t *testing.T) {
	for _, tc := range []struct {
		name  string
		langs []*Language
		want  string
	}{
		{"extension", []*Language{{Name: "go", Extensions: []string{".go"}}, {Name: "other", Extensions: []string{".x", ".go"}}},
			`extension ".go" registered twice (go and other)`},
		{"file name", []*Language{{Name: "ruby", Filenames: []string{"Gemfile"}}, {Name: "other", Filenames: []string{"Gemfile"}}},
			`file name "Gemfile" registered twice (ruby and other)`},
		{"interpreter", []*Language{{Name: "python", Interpreters: []string{"python"}}, {Name: "other", Interpreters: []string{"python"}}},
			`interpreter "python" registered twice (python and other)`},
		{"language name", []*Language{{Name: "go"}, {Name: "go"}},
			`language name "go" registered twice (go and go)`},
		{"upper-case extension", []*Language{{Name: "go", Extensions: []string{".GO"}}},
			`go: extension ".GO" must be lower case with a leading dot`},
		{"no dot", []*Language{{Name: "go", Extensions: []string{"go"}}},
			`go: extension "go" must be lower case with a leading dot`},
	} {
		r, err := indexLanguages(tc.langs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: indexLanguages = %v, %v; want an error saying %s", tc.name, r, err, tc.want)
		}
	}
}

// TestQueriesCompile compiles every definitions query: a typo in a node
// type fails here, not at the first file of that language.
func TestQueriesCompile(t *testing.T) {
	for _, l := range languages {
		if _, q, err := l.compiled(); err != nil || q == nil {
			t.Errorf("%s: query %v, %v", l.Name, q, err)
		}
	}
}
