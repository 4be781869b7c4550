//go:build !purego

package scan

import "golang.org/x/sys/cpu"

// step is how many places one step of the AVX2 routines tests (one
// 32-byte register); the Go loops take the places after the last whole
// step.
const step = 32

func avx2Missing() string {
	if cpu.X86.HasAVX2 {
		return ""
	}
	return "the CPU has no AVX2"
}
