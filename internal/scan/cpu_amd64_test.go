//go:build !purego

package scan

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// The scans' own CPUID reading must agree with golang.org/x/sys/cpu's,
// which it replaces at start-up only.
func TestAVX2AgreesWithXSysCPU(t *testing.T) {
	if got, want := avx2Missing() == "", cpu.X86.HasAVX2; got != want {
		t.Fatalf("AVX2 usable: scan says %v (%q), golang.org/x/sys/cpu says %v", got, avx2Missing(), want)
	}
}
