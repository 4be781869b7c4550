package core

import (
	"io/fs"
	"path"
	"strings"
	"unsafe"
)

// MapFS is a workspace held in memory, the one the tests and benchmarks of
// every package use: clean slash-separated names, relative to the root, to
// file contents. A name that others sit under ("src" for "src/a.go", or an
// empty folder written "src/") is a folder. There are no symbolic links:
// every name is its own real path.
//
// ReadFile hands out the string's bytes without a copy (a benchmark's
// 100 MB file is not copied per run); the engine never writes to what it
// reads, and no caller may.
type MapFS map[string]string

// ReadFile returns the contents of name.
func (m MapFS) ReadFile(name string) ([]byte, error) {
	if s, ok := m[name]; ok {
		return unsafe.Slice(unsafe.StringData(s), len(s)), nil
	}
	for k := range m {
		if strings.HasPrefix(k, name+"/") {
			return nil, ErrNotRegular
		}
	}
	return nil, fs.ErrNotExist
}

// FilesNamed implements Namesakes.
func (m MapFS) FilesNamed(base string, limit int) []string {
	var out []string
	for k := range m {
		if len(out) == limit {
			break
		}
		if path.Base(k) == base && !strings.HasSuffix(k, "/") {
			out = append(out, k)
		}
	}
	return out
}

// RealPath returns name: a MapFS has no links.
func (m MapFS) RealPath(name string) (string, error) { return name, nil }

// Apply writes a plan's files into m, as core/commit writes them to disk.
func (m MapFS) Apply(p *Plan) {
	for _, f := range p.Files {
		if f.Action == ActionDelete {
			delete(m, f.Path)
		} else {
			m[f.Path] = string(f.Bytes())
		}
	}
}
