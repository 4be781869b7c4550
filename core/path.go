package core

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// pathError is a refused path: the kind to report and why.
type pathError struct {
	kind   Kind
	reason string
}

func (e *pathError) Error() string { return e.reason }

// CleanPathIn is CleanPath against root, then, for an absolute path
// outside it, against each alias of root (Options.RootAliases).
func CleanPathIn(root string, aliases []string, name string) (string, error) {
	clean, err := CleanPath(root, name)
	if err == nil || !strings.HasPrefix(name, "/") {
		return clean, err
	}
	for _, a := range aliases {
		if c, e := CleanPath(a, name); e == nil {
			return c, nil
		}
	}
	return clean, err
}

// CleanPath turns a path as written in a patch into a clean slash path
// relative to root, refusing what may never be written: escapes from the
// root, NUL bytes, Windows drive and UNC paths, and anything inside a .git
// folder. root is the absolute workspace root with forward slashes; an
// absolute path inside it is accepted (docs/ARCHITECTURE.md
// "Fine print").
//
// This is pure string work; symbolic links are checked by FS.RealPath.
func CleanPath(root, name string) (string, error) {
	if name == "" {
		return "", &pathError{KindBadPath, "the path is empty"}
	}
	if strings.ContainsRune(name, 0) {
		return "", &pathError{KindBadPath, "the path contains a NUL byte"}
	}
	if !utf8.ValidString(name) {
		return "", &pathError{KindBadPath, fmt.Sprintf("the path %q is not valid UTF-8", name)}
	}
	if r, what := spoofRune(name); what != "" {
		return "", &pathError{KindBadPath, fmt.Sprintf("the path %q contains %U, %s; write paths in plain characters", name, r, what)}
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
	for part := range strings.SplitSeq(p, "/") {
		if strings.EqualFold(part, ".git") {
			return "", &pathError{KindBadPath, fmt.Sprintf("the path %q is inside a .git folder; fsrb never edits git's internals", name)}
		}
	}
	for part := range strings.SplitSeq(p, "/") {
		if len(part) > 255 {
			return "", &pathError{KindBadPath, fmt.Sprintf("a file or folder name in %q is longer than 255 bytes", name)}
		}
	}
	return p, nil
}

// PathKind tells which problem kind an error of CleanPath or FS.RealPath
// belongs to: outside-root, bad-path, or read-error.
func PathKind(err error) Kind { return pathKind(err) }

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

// spoofRune finds a character that has no business in a path a patch
// names: a control character (a terminal or a review would hide it), a
// bidirectional override (it reorders what the reader sees), or a look-alike
// of a separator or a dot ("..／etc", "．．/x"), which would write a file
// whose name reads like an escape from the root. Other non-ASCII names
// (accents, CJK, emoji) are fine.
func spoofRune(name string) (rune, string) {
	for _, r := range name {
		switch {
		case r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0:
			return r, "a control character"
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return r, "a bidirectional control, which reorders what a reader sees"
		}
		switch r {
		case '\uFF0F', '\u2215', '\u2044', '\u29F8', '\u2571', '\uFE68', '\uFF3C', '\u29F5', '\u29F9', '\u2216':
			return r, "a look-alike of a slash"
		case '\uFF0E', '\u2024', '\u2025', '\uFE52':
			return r, "a look-alike of a dot"
		}
	}
	return 0, ""
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
