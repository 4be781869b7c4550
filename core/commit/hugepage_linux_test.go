package commit

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugeAligned gives n bytes at a 2 MB boundary, in huge pages where the
// kernel gives them on request: the mapping that holds the buffer's
// middle, once written, shows AnonHugePages in /proc/self/smaps. The raw
// memory is mapped here, not taken from Go's heap, which may hand back
// memory already in 4 KB pages (the advice then changes nothing: in 4 of
// 10 runs of a test that read a file through readBuffer).
func TestHugeAlignedGetsHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) && !bytes.Contains(mode, []byte("[always]")) {
		t.Skipf("this kernel gives no huge pages on request (%q, %v)", mode, err)
	}
	buf, err := unix.Mmap(-1, 0, 8<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(buf)
	fallbacks := vmstat(t, "thp_fault_fallback")
	raw := buf[4096:] // not aligned: hugeAligned finds the first 2 MB page
	got := hugeAligned(raw, 3<<20)
	if len(got) != 3<<20 || uintptr(unsafe.Pointer(&got[0]))%hugePage != 0 {
		t.Fatalf("hugeAligned gave %d bytes at %p; want 3 MB at a 2 MB boundary", len(got), &got[0])
	}
	for i := 0; i < len(got); i += 4096 {
		got[i] = 1
	}
	kb, err := anonHugeKB(uintptr(unsafe.Pointer(&got[len(got)/2])))
	if err != nil {
		t.Fatal(err)
	}
	if kb == 0 && vmstat(t, "thp_fault_fallback") > fallbacks {
		t.Skip("the kernel had no free huge page")
	}
	if kb < 2048 {
		t.Errorf("the buffer's mapping holds %d KB of huge pages; want 2048 or more", kb)
	}
}

func vmstat(t *testing.T, name string) int {
	data, err := os.ReadFile("/proc/vmstat")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		var n int
		if k, _ := fmt.Sscanf(line, name+" %d", &n); k == 1 {
			return n
		}
	}
	return 0
}

// anonHugeKB returns the AnonHugePages of the mapping in /proc/self/smaps
// that holds addr.
func anonHugeKB(addr uintptr) (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 {
			in = lo <= addr && addr < hi
			continue
		}
		var kb int
		if n, _ := fmt.Sscanf(line, "AnonHugePages: %d kB", &kb); in && n == 1 {
			return kb, nil
		}
	}
	return 0, fmt.Errorf("no mapping in /proc/self/smaps holds %#x", addr)
}
