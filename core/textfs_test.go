package core

import (
	"io/fs"
	"strings"
)

// textFS is an in-memory workspace for tests: no symlinks, every path real.
type textFS map[string]string

func (m textFS) ReadFile(name string) ([]byte, error) {
	if s, ok := m[name]; ok {
		return []byte(s), nil
	}
	for k := range m {
		if strings.HasPrefix(k, name+"/") {
			return nil, ErrNotRegular
		}
	}
	return nil, fs.ErrNotExist
}

func (m textFS) RealPath(name string) (string, error) { return name, nil }

// applyAll commits a plan to the textFS the way core/commit would.
func (m textFS) applyAll(p *Plan) {
	for _, f := range p.Files {
		if f.Action == ActionDelete {
			delete(m, f.Path)
		} else {
			m[f.Path] = string(f.Bytes())
		}
	}
}
