package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	"github.com/fsrb/fsrb/core"
)

// ReadText reads a file the way the engine does, for "fsrb read" and the
// MCP read tool alike: the path confined to the root (absolute inside it,
// or relative to it), through symlinks that stay inside it, text only. A
// refusal says which problem kind it is: outside-root, bad-path,
// missing-file, binary or read-error.
func (w *Workspace) ReadText(name string) ([]byte, core.Kind, error) {
	clean, err := w.Clean(name)
	if err != nil {
		return nil, readKind(err), err
	}
	real, err := w.Disk.RealPath(clean)
	if err != nil {
		return nil, readKind(err), err
	}
	data, err := w.Disk.ReadFile(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, core.KindMissingFile, fmt.Errorf("%s does not exist", name)
	case err != nil:
		return nil, readKind(err), err
	case bytes.IndexByte(data, 0) >= 0:
		return nil, core.KindBinary, fmt.Errorf("%s is a binary file (it holds a NUL byte)", name)
	}
	return data, "", nil
}

func readKind(err error) core.Kind {
	if errors.Is(err, fs.ErrNotExist) {
		return core.KindMissingFile
	}
	return core.PathKind(err)
}
