package fsrb_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/fsrb/fsrb"

// allowed says which of our packages a package may import
// (docs/ARCHITECTURE.md "Import direction"): core imports internal/scan
// alone (the engine's byte scans, with their assembly), which imports
// nothing of ours; core's sub-packages import only core, treesitter only
// core; pipeline (the engine as every front end runs it) core and
// treesitter; the MCP server and the language server core, treesitter and
// pipeline: pipeline.Validate is their one entry point to the engine, so
// a check is added once. lsp/internal/rpc is the server's transport
// (JSON-RPC framing, ordering, cancellation): it imports none of our
// packages, so it stays a transport. internal/testenv and internal/golden
// are for tests only.
func allowed(pkg, imp string) bool {
	within := func(p, root string) bool { return p == root || strings.HasPrefix(p, root+"/") }
	switch {
	case imp == "internal/testenv" || imp == "internal/golden":
		return false
	case pkg == "core":
		return imp == "internal/scan"
	case pkg == "internal/scan":
		return false
	case within(pkg, "core"):
		return within(imp, "core") && imp != pkg
	case within(pkg, "treesitter"):
		return within(imp, "core") || within(imp, "treesitter")
	case within(pkg, "pipeline"):
		return within(imp, "core") || within(imp, "treesitter")
	case within(pkg, "mcp"):
		return within(imp, "core") || within(imp, "treesitter") || within(imp, "pipeline") || within(imp, "mcp")
	case within(pkg, "lsp/internal/rpc"):
		return false
	case within(pkg, "lsp"):
		return within(imp, "core") || within(imp, "treesitter") || within(imp, "pipeline") || within(imp, "lsp")
	case within(pkg, "cmd"):
		return !within(imp, "cmd")
	}
	return true
}

// TestImportDirection fails on an import that points the wrong way, so the
// layout is checked, not hoped for (docs/ARCHITECTURE.md "Conventions").
func TestImportDirection(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			checked++
			if rel := strings.TrimPrefix(imp, module+"/"); !allowed(pkg, rel) {
				t.Errorf("%s imports %s: %s may not import it (docs/ARCHITECTURE.md \"Import direction\")", path, imp, pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked == 0 {
		t.Fatal("no imports of our own packages found: is the module path right?")
	}
}

// TestCoreIsPure keeps the engine, its byte scans included, free of the
// disk, protocol types and cgo: only core/commit touches the disk.
func TestCoreIsPure(t *testing.T) {
	fset := token.NewFileSet()
	banned := []string{"os", "os/exec", "C", "go.lsp.dev/protocol", "github.com/smacker/go-tree-sitter"}
	files, _ := filepath.Glob("core/*.go")
	scans, _ := filepath.Glob("internal/scan/*.go")
	files = append(files, scans...)
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, spec := range f.Imports {
			imp, _ := strconv.Unquote(spec.Path.Value)
			for _, b := range banned {
				if imp == b {
					t.Errorf("%s imports %s; core must stay pure", path, imp)
				}
			}
		}
	}
}
