//go:build !purego

package core

// simdChunk is how many places a step of the AVX2 scans tests (one
// 32-byte register); their callers take the rest of s in Go.
const simdChunk = 32

// hasSIMD: the scans of indexpair_amd64.s run only where the CPU has
// AVX2; elsewhere their callers' Go loops do all the work.
var hasSIMD = hasAVX2()

// hasAVX2 reports AVX2 in the CPU and its registers saved by the OS, as
// golang.org/x/sys/cpu does, with three CPUID instructions instead of
// that package's init: in a VM each CPUID is an exit to the hypervisor
// (6-7 us on issue 18's sixth-round VM), and the package cost every fsrb
// start 30-40 page faults and 1-1.5 ms (10.7-12.0 -> 9.9-10.2 ms for
// --version), for this one bit.
func hasAVX2() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c1&osxsave == 0 || c1&avx == 0 {
		return false
	}
	if xgetbv0()&0b110 != 0b110 { // the OS saves the XMM and YMM registers
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0
}

// cpuid runs CPUID with EAX=leaf and ECX=sub.
func cpuid(leaf, sub uint32) (a, b, c, d uint32)

// xgetbv0 returns the low half of XCR0, the state components the OS saves.
func xgetbv0() (eax uint32)

// indexPairSIMD is indexPair over the places [0, m&^31), m = len(s)-d >=
// 32: the first match, or -1 when none of those places is one.
//
//go:noescape
func indexPairSIMD(s string, c1, c2 byte, d int) int

// indexEitherSIMD is indexEither over s[:len(s)&^31], len(s) >= 32.
//
//go:noescape
func indexEitherSIMD(s string, a, b byte) int

// placesSIMD is appendPlaces' step: see core/indexpair_amd64.s.
//
//go:noescape
func placesSIMD(s string, c byte, out []int32, base int) (n, done int)
