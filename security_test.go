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
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (path == "editors" || path == "testdata" || path == "bench" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if banned[p] {
				t.Errorf("%s imports %s", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("only %d files checked", checked)
	}
}
