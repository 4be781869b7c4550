package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fsrb/fsrb/core"
)

// Origin says where a workspace root came from; the note that names the
// root when a path is missing says it too.
type Origin string

const (
	OriginFlag    Origin = "given by --root"
	OriginRepo    Origin = "the top of the git repository around the working directory; --root DIR changes it"
	OriginWorkdir Origin = "the working directory, which is in no git repository; --root DIR changes it"
)

// ResolveRoot turns the --root a user gave into the root every front end
// opens: absolute, a folder, its symlinks resolved. Without one (""), the
// root is the top of the git repository around the working directory,
// else the working directory: one rule for the CLI, the MCP server and
// the editors, which open the repository (or folder) a patch is in. A
// model writes paths from the top of the project, whatever folder its
// user's shell is in. given is the absolute spelling before resolution
// (an alias patches may use).
func ResolveRoot(root string) (resolved, given string, origin Origin, err error) {
	origin = OriginFlag
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", "", "", fmt.Errorf("cannot read the working directory: %v", err)
		}
		root, origin = wd, OriginWorkdir
		if top := RepoTop(wd); top != "" {
			root, origin = top, OriginRepo
		}
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", "", "", fmt.Errorf("bad --root %q: %v", root, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", "", "", fmt.Errorf("bad --root %q: %v", root, errors.Unwrap(err))
	}
	if !st.IsDir() {
		return "", "", "", fmt.Errorf("bad --root %q: not a directory", root)
	}
	resolved, err = filepath.EvalSymlinks(abs)
	return resolved, abs, origin, err
}

// RepoTop is the nearest folder at or above dir (absolute) that holds a
// ".git": a folder, or the file of a linked worktree or a submodule, as
// git finds its work tree. "" when there is none.
func RepoTop(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// MissingNote names the root the paths of a plan are relative to when a
// block's file is missing, and where that root came from: "x does not
// exist" alone does not say where fsrb looked. "" when no file is missing.
func MissingNote(plan *core.Plan, root string, origin Origin) string {
	for _, p := range plan.Problems {
		if p.Kind == core.KindMissingFile {
			return RootNote(root, origin)
		}
	}
	return ""
}

// RootNote says which root paths are relative to, and where it came from.
func RootNote(root string, origin Origin) string {
	if origin == "" {
		return fmt.Sprintf("Paths are relative to the root %s.", root)
	}
	return fmt.Sprintf("Paths are relative to the root %s (%s).", root, origin)
}
