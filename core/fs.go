package core

import "errors"

// FS is how the engine reads the workspace: the disk for the CLI, the disk
// overlaid with open editor buffers for the language server. Names are clean,
// slash-separated paths relative to the root. The engine never writes; only
// core/commit does.
type FS interface {
	// ReadFile returns the content of a regular file. A missing file gives an
	// error that matches fs.ErrNotExist; a folder, device or other
	// non-regular file gives one that matches ErrNotRegular.
	ReadFile(name string) ([]byte, error)

	// RealPath resolves symbolic links in name and returns the real path,
	// relative to the root. A name that does not exist yet resolves through
	// its deepest existing parent. A name that resolves outside the root
	// gives an error that matches ErrOutsideRoot.
	RealPath(name string) (string, error)
}

// Namesakes is what an FS may also do: list the files of the workspace
// that have a given base name. The engine asks it only for a file a block
// names and that does not exist ("did you mean dir/file3.py?"); an FS
// without it gets no such guess.
type Namesakes interface {
	// FilesNamed returns the files whose base name is base, clean and
	// relative to the root, at most limit of them, in no set order. It
	// skips folders nobody edits by hand (.git, dependencies, caches) and
	// returns nil when the tree is too big to look through quickly.
	FilesNamed(base string, limit int) []string
}

var (
	// ErrOutsideRoot reports a path that leaves the workspace root.
	ErrOutsideRoot = errors.New("path leaves the workspace root")
	// ErrNotRegular reports a folder, device, socket or other non-regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrInsideGit reports a path that resolves into a .git folder.
	ErrInsideGit = errors.New("path is inside a .git folder")
)
