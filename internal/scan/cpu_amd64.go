//go:build !purego

package scan

// step is how many places one step of the AVX2 routines tests (one
// 32-byte register); the Go loops take the places after the last whole
// step.
const step = 32

// avx2Missing asks the CPU itself rather than through golang.org/x/sys/cpu:
// that package's init asks for every feature it knows, in every process,
// and on a virtual machine each CPUID traps to the hypervisor, a cost
// every short fsrb run pays at start (make bench, the start-up row). The
// scans need one answer, which takes three questions.
func avx2Missing() string {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return "the CPU has no AVX2"
	}
	const (
		osxsave = 1 << 27 // leaf 1, ECX: the OS saves extended state (XGETBV works)
		avx     = 1 << 28 // leaf 1, ECX
		avx2    = 1 << 5  // leaf 7, EBX
		ymm     = 1<<1 | 1<<2
	)
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1&(osxsave|avx) != osxsave|avx {
		return "the CPU has no AVX2"
	}
	if xcr0, _ := xgetbv(); xcr0&ymm != ymm {
		return "the OS does not save the AVX registers"
	}
	if _, ebx7, _, _ := cpuid(7, 0); ebx7&avx2 == 0 {
		return "the CPU has no AVX2"
	}
	return ""
}

// cpuid returns the CPUID leaf eaxArg, subleaf ecxArg.
//
//go:noescape
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns XCR0, the extended state the OS saves.
//
//go:noescape
func xgetbv() (eax, edx uint32)
