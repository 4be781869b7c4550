//go:build !linux

package main

import (
	"io"
	"os"
)

// rawIO is f: the raw system calls are Linux's (rawio_linux.go).
func rawIO(f *os.File) io.ReadWriteCloser { return f }
