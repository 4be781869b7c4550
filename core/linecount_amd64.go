//go:build !purego

package core

import "golang.org/x/sys/cpu"

// hasAVX512: scanLines runs where the CPU has AVX-512 (BW for the byte
// compares into masks). With AVX2 the same loop needs five vector
// operations a 32 bytes and ran at 50 GB/s on issue 18's VM, slower than
// the NUL and CR scan and a later newline count together; with 64 bytes a
// compare it reads 80 KB at the cache's 90 GB/s, as fast as either.
var hasAVX512 = cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW

// scanLinesAVX512 is scanLines' step over the whole blocks of s, 1<<shift
// bytes each: see core/linecount_amd64.s.
//
//go:noescape
func scanLinesAVX512(s string, lines []uint32, shift uint) bool
