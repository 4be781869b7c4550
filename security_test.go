package fsrb_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// SECURITY.md promises 3 and 4: no network, no code execution. No
// non-test Go file of fsrb imports a package that opens sockets or starts
// processes (the language server speaks over stdin/stdout, which needs
// neither). The editor plugins (editors/) are not Go and start fsrb-lsp
// themselves. bench/ is `make bench`'s driver, a development tool that is
// no part of what ships: it starts fsrb and grep to time them.
func TestNoNetworkNoExec(t *testing.T) {
	banned := map[string]bool{
		"net": true, "net/http": true, "net/rpc": true, "net/smtp": true, "net/netip": false,
		"os/exec": true, "plugin": true, "crypto/tls": true,
	}
	checked := 0
	shippedGoFiles(t, parser.ImportsOnly, func(path string, f *ast.File) {
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if banned[p] {
				t.Errorf("%s imports %s", path, p)
			}
		}
	})
	if checked < 20 {
		t.Fatalf("only %d files checked", checked)
	}
}

// TestOneProgramStarted pins SECURITY.md 4's one exception: "fsrb mcp"
// becomes fsrb-mcp (cmd/fsrb/mcp_unix.go: execve; cmd/fsrb/mcp_other.go:
// a child where there is no exec). No other non-test Go file starts or
// becomes a program.
func TestOneProgramStarted(t *testing.T) {
	starts := map[string]bool{
		"syscall.Exec": true, "syscall.ForkExec": true, "syscall.StartProcess": true,
		"os.StartProcess": true, "unix.Exec": true,
	}
	allowed := map[string]bool{"cmd/fsrb/mcp_unix.go": true, "cmd/fsrb/mcp_other.go": true}
	found := map[string]bool{}
	shippedGoFiles(t, 0, func(path string, f *ast.File) {
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && starts[x.Name+"."+sel.Sel.Name] {
				found[path] = true
				if !allowed[path] {
					t.Errorf("%s calls %s.%s: fsrb starts no program but fsrb-mcp (SECURITY.md 4)", path, x.Name, sel.Sel.Name)
				}
			}
			return true
		})
	})
	for path := range allowed {
		if !found[path] {
			t.Errorf("%s no longer starts fsrb-mcp: update this test and SECURITY.md 4", path)
		}
	}
}

// shippedGoFiles parses, with mode, every non-test Go file of what ships
// (not editors/, testdata/, bench/ or hidden folders) and hands it to
// check with its slash path.
func shippedGoFiles(t *testing.T, mode parser.Mode, check func(path string, f *ast.File)) {
	t.Helper()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// internal/testenv and internal/golden are the tests' own helpers:
		// only test files import them (layout_test.go), so they ship in no
		// binary.
		testOnly := path == filepath.Join("internal", "testenv") || path == filepath.Join("internal", "golden")
		if d.IsDir() && (path == "editors" || path == "testdata" || path == "bench" || testOnly || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, mode)
		if err != nil {
			return err
		}
		check(filepath.ToSlash(path), f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
