//go:build !unix

package main

import "os"

// pollable returns f: only Unix pipes are made non-blocking (pollable_unix.go).
func pollable(f *os.File) *os.File { return f }
