package pipeline_test

import (
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

// FuzzSnippetOutline runs chat answers through the parser, tree-sitter's
// outline and the resolver: never a panic, and an answer that applies
// writes nothing the second time.
func FuzzSnippetOutline(f *testing.F) {
	for _, tc := range []struct{ file, code, path string }{
		{"class A {\n  a() {\n    return 1;\n  }\n\n  b() {\n    return 2;\n  }\n}\n", "class A {\n  // ... existing code ...\n  b() {\n    return 3;\n  }\n}\n", "x.js"},
		{"def f():\n    x = 1\n    return x\n\n\ndef g():\n    pass\n", "def f():\n    x = 2\n    # ... existing code ...\n", "x.py"},
		{"package p\n\nfunc (s *S) A() int {\n\treturn 1\n}\n", "// ...existing code...\nfunc (s *S) A() int {\n\treturn 2\n}\n", "x.go"},
	} {
		f.Add(tc.file, tc.code, tc.path)
	}
	f.Fuzz(func(t *testing.T, file, code, path string) {
		switch {
		case strings.HasSuffix(path, ".py"), strings.HasSuffix(path, ".go"), strings.HasSuffix(path, ".js"), strings.HasSuffix(path, ".rs"), strings.HasSuffix(path, ".tsx"):
		default:
			path = "x.py"
		}
		if strings.Contains(code, "```") || strings.Contains(path, "/") || strings.ContainsAny(path, " \t\n`") {
			return
		}
		answer := "```" + path[strings.LastIndexByte(path, '.')+1:] + " " + path + "\n" + code + "\n```\n"
		run := func(content string) *core.Plan {
			patch := core.Parse(answer, core.ParseOptions{Snippets: true})
			return pipeline.Validate(patch, core.MapFS{path: content}, pipeline.Check{Options: core.Options{Applied: true}, Checker: pipeline.Disk})
		}
		plan := run(file)
		if !plan.OK() || len(plan.Files) != 1 || len(plan.Blocks) != 1 || plan.Blocks[0].Status != core.StatusApplies {
			return
		}
		after := string(plan.Files[0].Bytes())
		again := run(after)
		if again.OK() && len(again.Files) == 1 && again.Blocks[0].Status == core.StatusApplies && string(again.Files[0].Bytes()) != after {
			t.Errorf("written twice:\nfile:\n%s\nanswer:\n%s\nonce:\n%s\ntwice:\n%s", file, answer, after, again.Files[0].Bytes())
		}
	})
}
