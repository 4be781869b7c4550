package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runMeasured runs the built fsrb and returns its exit code, output, peak
// resident memory and wall time. The peak comes from GNU time (%M) when
// /usr/bin/time exists: a child started straight from this test process
// inherits its memory high-water mark (vfork, then exec), which under the
// race detector is larger than fsrb's own; getrusage is the fallback.
func runMeasured(t *testing.T, dir string, args ...string) (code int, stdout, stderr string, maxRSS int64, took time.Duration) {
	t.Helper()
	cmd := exec.Command(fsrbBin, args...)
	rssFile := ""
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		rssFile = filepath.Join(t.TempDir(), "rss")
		cmd = exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", rssFile, fsrbBin}, args...)...)
	}
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+t.TempDir(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(rssFile); rssFile != "" && err == nil {
		fields := strings.Fields(string(data)) // "Command exited with non-zero status 1" comes first
		if len(fields) > 0 {
			kb, _ := strconv.ParseInt(fields[len(fields)-1], 10, 64)
			maxRSS = kb * 1024
		}
	} else if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		maxRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return code, out.String(), errb.String(), maxRSS, took
}

func mib(n int64) string { return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20)) }

// A big target file: three blocks in it apply byte for byte, and the
// process's peak memory stays a small multiple of the file (logged). The
// 100 MB run is part of `make stress` (FSRB_STRESS=1); `make test` runs
// the same test on 8 MB.
func TestBigTargetFile(t *testing.T) {
	size := 8 << 20
	if os.Getenv("FSRB_STRESS") != "" {
		size = 100 << 20
	}
	root := t.TempDir()
	var b bytes.Buffer
	b.Grow(size + 100)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "row %09d: lorem ipsum dolor sit amet, consectetur adipiscing elit\r\n", i)
	}
	orig := b.Bytes()
	n := bytes.Count(orig, []byte("\n"))
	if err := os.WriteFile(filepath.Join(root, "big.csv"), orig, 0o644); err != nil {
		t.Fatal(err)
	}
	rows := []int{0, n / 2, n - 1}
	var p strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&p, "big.csv\n<<<<<<< SEARCH\nrow %09d: lorem ipsum dolor sit amet, consectetur adipiscing elit\n=======\nROW %09d changed\n>>>>>>> REPLACE\n\n", r, r)
	}
	code, stdout, stderr, rss, took := runMeasured(t, root, writePatch(t, p.String()))
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	want := orig
	for _, r := range rows {
		old := []byte(fmt.Sprintf("row %09d: lorem ipsum dolor sit amet, consectetur adipiscing elit\r\n", r))
		want = bytes.Replace(want, old, []byte(fmt.Sprintf("ROW %09d changed\r\n", r)), 1)
	}
	got, _ := os.ReadFile(filepath.Join(root, "big.csv"))
	if !bytes.Equal(got, want) {
		t.Errorf("the file is not what the blocks make of it (%d bytes, want %d)", len(got), len(want))
	}
	t.Logf("target of %s (%d lines, CRLF): applied in %v, peak RSS %s (%.1f× the file)", mib(int64(len(orig))), n, took.Round(time.Millisecond), mib(rss), float64(rss)/float64(len(orig)))
	if rss > 4*int64(len(orig))+64<<20 { // 3.1x measured: old, LF text, new
		t.Errorf("peak RSS %s for a file of %s", mib(rss), mib(int64(len(orig))))
	}
}

// A patch of 10,000 blocks over 100 files applies in one commit; its
// figures are logged.
func TestTenThousandBlocks(t *testing.T) {
	root := t.TempDir()
	var p strings.Builder
	want, orig := map[string]string{}, map[string]string{}
	for f := range 100 {
		name := fmt.Sprintf("src/m%03d.py", f)
		var before, after strings.Builder
		for fn := range 100 {
			fmt.Fprintf(&before, "def f%d_%d():\n    return %d\n\n", f, fn, fn)
			fmt.Fprintf(&after, "def f%d_%d():\n    return %d * 2\n\n", f, fn, fn)
			fmt.Fprintf(&p, "%s\n<<<<<<< SEARCH\ndef f%d_%d():\n    return %d\n=======\ndef f%d_%d():\n    return %d * 2\n>>>>>>> REPLACE\n\n", name, f, fn, fn, f, fn, fn)
		}
		os.MkdirAll(filepath.Join(root, "src"), 0o755)
		os.WriteFile(filepath.Join(root, name), []byte(before.String()), 0o644)
		want[name] = after.String()
		orig[name] = before.String()
	}
	code, stdout, stderr, rss, took := runMeasured(t, root, writePatch(t, p.String()))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.HasSuffix(stdout, "[SUCCESS] All 10000 blocks applied to 100 files.\n") {
		t.Errorf("stdout ends %q", stdout[max(0, len(stdout)-100):])
	}
	got := tree(t, root)
	for name, content := range want {
		if got[name] != content {
			t.Errorf("%s is not as the blocks make it", name)
		}
	}
	t.Logf("patch of 10,000 blocks (%s) over 100 files: applied in %v, peak RSS %s", mib(int64(p.Len())), took.Round(time.Millisecond), mib(rss))

	// The same patch with one broken block, on the tree as it was: the
	// 9,999 others validate, only the broken one is reported, and nothing
	// is written.
	root2 := workspace(t, orig)
	broken := strings.Replace(p.String(), "def f57_42():\n    return 42\n=", "def f57_42():\n    return 4242\n=", 1)
	code, _, stderr, _, took = runMeasured(t, root2, writePatch(t, broken))
	if code != exitFail || !strings.Contains(stderr, "Block #5743: SEARCH block not found") || strings.Count(stderr, "  - Block #") != 1 {
		t.Errorf("exit %d\n%s", code, stderr[:min(len(stderr), 800)])
	}
	if got := tree(t, root2); !reflect.DeepEqual(got, orig) {
		t.Errorf("a failed patch of 10,000 blocks wrote something")
	}
	t.Logf("the same patch with one broken block: refused in %v", took.Round(time.Millisecond))
}

// Bytes that are not UTF-8, in the target and in the patch: a block
// written with the same bytes matches and writes them back exactly; the
// bytes around it never change. A file holding a NUL byte (binary,
// UTF-16) is refused and left alone.
func TestInvalidUTF8AndBinary(t *testing.T) {
	latin1 := "caf\xe9 = 1\r\nna\xefve = 2\r\n\xff\xfe\xfd raw\r\nend\r\n"
	root := workspace(t, map[string]string{
		"latin1.txt": latin1,
		"bin.png":    "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
		"utf16.txt":  "\xff\xfeh\x00i\x00\n\x00",
		"late.bin":   strings.Repeat("text line\n", 100000) + "\x00",
	})
	patch := "Some prose with broken bytes \xc3\x28 around it.\n\nlatin1.txt\n<<<<<<< SEARCH\nna\xefve = 2\n\xff\xfe\xfd raw\n=======\nna\xefve = 3\n\xc0\xaf still raw\n>>>>>>> REPLACE\n"
	code, stdout, stderr := runCLI(t, root, writePatch(t, patch))
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if got, want := readFile(t, filepath.Join(root, "latin1.txt")), "caf\xe9 = 1\r\nna\xefve = 3\r\n\xc0\xaf still raw\r\nend\r\n"; got != want {
		t.Errorf("latin1.txt = %q\nwant %q", got, want)
	}
	for _, name := range []string{"bin.png", "utf16.txt", "late.bin"} {
		before := readFile(t, filepath.Join(root, name))
		code, _, stderr := runCLI(t, root, writePatch(t, name+"\n<<<<<<< SEARCH\nh\n=======\nx\n>>>>>>> REPLACE\n"))
		if code != exitFail || !strings.Contains(stderr, "is a binary file (it holds a NUL byte)") {
			t.Errorf("%s: exit %d\n%s", name, code, stderr)
		}
		if readFile(t, filepath.Join(root, name)) != before {
			t.Errorf("%s changed", name)
		}
	}
}

// The limits (SECURITY.md): a target over 256 MiB is refused before it is
// read, with a message that names the limit, and so is a patch over 64
// MiB (a usage error). Both files are sparse: nothing big is written here.
func TestSizeLimits(t *testing.T) {
	root := workspace(t, map[string]string{"ok.txt": "ok\n"})
	huge := filepath.Join(root, "huge.log")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("first line\n")
	if err := f.Truncate(256<<20 + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, _, stderr, rss, _ := runMeasured(t, root, writePatch(t, "ok.txt\n<<<<<<< SEARCH\nok\n=======\nOK\n>>>>>>> REPLACE\n\nhuge.log\n<<<<<<< SEARCH\nfirst line\n=======\nx\n>>>>>>> REPLACE\n"))
	if code != exitFail || !strings.Contains(stderr, "Block #2: huge.log cannot be read") || !strings.Contains(stderr, "larger than fsrb's limit of 256 MiB: it holds 268435457 bytes") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	if readFile(t, filepath.Join(root, "ok.txt")) != "ok\n" {
		t.Error("ok.txt was written")
	}
	if rss > 128<<20 {
		t.Errorf("refusing a huge file took %s: it was read", mib(rss))
	}

	big := filepath.Join(t.TempDir(), "big.fsrb")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Truncate(big, 64<<20+1)
	code, _, stderr = runCLI(t, root, big)
	if code != exitUsage || !strings.Contains(stderr, "the patch is larger than fsrb's limit of 64 MiB") {
		t.Errorf("a patch over the limit: exit %d\n%s", code, stderr)
	}
}
