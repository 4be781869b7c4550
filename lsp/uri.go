package lsp

// This file keeps what go.lsp.dev/uri v1.0.1 leaves to the server (the
// JSON-RPC conventions the libraries leave to it are internal/rpc's):
//
//   - fileURI: uri.File of v1 escapes + @ & $ , ; = : in paths (as
//     vscode-uri does), which would change the URIs on the wire; both forms
//     name the same file, so fsrb keeps v0.3's;
//   - filename: uri v1 has no URI-to-path conversion.

import (
	"net/url"
	"path/filepath"
	"strings"

	"go.lsp.dev/uri"
)

// filename converts a file URI into an absolute OS path without panicking.
func filename(u uri.URI) (string, bool) {
	p, err := url.Parse(string(u))
	if err != nil || p.Scheme != "file" {
		return "", false
	}
	path := p.Path
	if len(path) >= 3 && path[0] == '/' && path[2] == ':' {
		path = path[1:] // /C:/x on Windows
	}
	return filepath.FromSlash(path), true
}

// fileURI is the URI of an absolute OS path, escaped as net/url does.
func fileURI(path string) uri.URI {
	path = filepath.ToSlash(path)
	if len(path) >= 2 && path[1] == ':' {
		path = "/" + path // C:/x on Windows
	}
	return uri.URI((&url.URL{Scheme: "file", Path: path}).String())
}

// hasExt reports whether the URI's path ends with one of exts (lower case).
func hasExt(u uri.URI, exts ...string) bool {
	s := strings.ToLower(string(u))
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	for _, e := range exts {
		if strings.HasSuffix(s, e) {
			return true
		}
	}
	return false
}
