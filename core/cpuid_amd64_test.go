//go:build !purego

package core

import (
	"os"
	"regexp"
	"testing"
)

// hasAVX2 agrees with the kernel's own reading of the CPU: the "avx2"
// flag of /proc/cpuinfo, which Linux clears when it does not save the
// YMM registers.
func TestHasAVX2MatchesCPUInfo(t *testing.T) {
	info, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	flags := regexp.MustCompile(`(?m)^flags\s*:(.*)$`).FindSubmatch(info)
	if flags == nil {
		t.Skip("/proc/cpuinfo lists no flags")
	}
	want := regexp.MustCompile(`\bavx2\b`).Match(flags[1])
	if got := hasAVX2(); got != want {
		t.Errorf("hasAVX2() = %v; /proc/cpuinfo says avx2 %v", got, want)
	}
	if hasSIMD != want {
		t.Errorf("hasSIMD = %v, want %v", hasSIMD, want)
	}
}
