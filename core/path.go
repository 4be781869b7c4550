package core

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// pathError is a refused path: the kind to report and why.
type pathError struct {
	kind   Kind
	reason string
}

func (e *pathError) Error() string { return e.reason }

// CleanPath turns a path as written in a patch into a clean slash path
// relative to root, refusing what may never be written: escapes from the
// root, NUL bytes, Windows drive and UNC paths, and anything inside a .git
// folder. root is the absolute workspace root with forward slashes; an
// absolute path inside it is accepted (DESIGN.md "Fine print").
//
// This is pure string work; symbolic links are checked by FS.RealPath.
func CleanPath(root, name string) (string, error) {
	if name == "" {
		return "", &pathError{KindBadPath, "the path is empty"}
	}
	if strings.ContainsRune(name, 0) {
		return "", &pathError{KindBadPath, "the path contains a NUL byte"}
	}
	if strings.Contains(name, `\`) {
		return "", &pathError{KindBadPath, fmt.Sprintf("the path %q contains a backslash; write paths with forward slashes", name)}
	}
	if len(name) >= 2 && name[1] == ':' && isASCIILetter(name[0]) {
		return "", &pathError{KindOutsideRoot, fmt.Sprintf("the path %q is a Windows drive path; write it relative to the workspace root", name)}
	}
	p := name
	if strings.HasPrefix(p, "/") {
		r := strings.TrimSuffix(path.Clean(root), "/")
		cp := path.Clean(p)
		switch {
		case r != "" && cp == r:
			return "", &pathError{KindBadPath, fmt.Sprintf("the path %q is the workspace root itself, not a file", name)}
		case r != "" && strings.HasPrefix(cp, r+"/"):
			p = strings.TrimPrefix(cp, r+"/")
		default:
			return "", &pathError{KindOutsideRoot, fmt.Sprintf("the absolute path %q is outside the workspace root %s", name, root)}
		}
	}
	p = path.Clean(p)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", &pathError{KindOutsideRoot, fmt.Sprintf("the path %q leaves the workspace root through \"..\"", name)}
	}
	if p == "." || p == "" {
		return "", &pathError{KindBadPath, fmt.Sprintf("the path %q names the workspace root, not a file", name)}
	}
	for _, part := range strings.Split(p, "/") {
		if strings.EqualFold(part, ".git") {
			return "", &pathError{KindBadPath, fmt.Sprintf("the path %q is inside a .git folder; fsrb never edits git's internals", name)}
		}
	}
	if len(path.Base(p)) > 255 {
		return "", &pathError{KindBadPath, fmt.Sprintf("the file name in %q is longer than 255 bytes", name)}
	}
	return p, nil
}

// pathKind tells which problem kind a path error belongs to.
func pathKind(err error) Kind {
	var pe *pathError
	if errors.As(err, &pe) {
		return pe.kind
	}
	if errors.Is(err, ErrOutsideRoot) {
		return KindOutsideRoot
	}
	if errors.Is(err, ErrNotRegular) || errors.Is(err, ErrInsideGit) {
		return KindBadPath
	}
	return KindReadError
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
