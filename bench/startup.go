package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// The start-up row: `fsrb --version` beside a Go "hello world", run in
// turns in the same minutes. An agent starts fsrb once per edit, so what
// a process pays before its main is paid every time; the hello world
// built by a plain `go build` is the floor of any Go program here, and
// the same hello world built as make builds fsrb (cgo's runtime and the C
// library linked in, statically on Linux) is the floor of any program
// that links C, as fsrb must for tree-sitter.

const helloSource = `package main

import "fmt"

func main() { fmt.Println("hello") }
`

// startRow is one program's runs: wall times and minor page faults.
type startRow struct {
	name   string
	times  []time.Duration
	faults []int64
}

func runStartup(tmp, bin string, rounds int, tags, ldflags string) []startRow {
	dir := filepath.Join(tmp, "hello")
	check(os.MkdirAll(dir, 0o755))
	check(os.WriteFile(filepath.Join(dir, "main.go"), []byte(helloSource), 0o644))
	check(os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.22\n"), 0o644))
	buildHello := func(name string, args ...string) string {
		out := filepath.Join(dir, name)
		build := exec.Command("go", append(append([]string{"build", "-o", out}, args...), ".")...)
		build.Dir = dir
		if msg, err := build.CombinedOutput(); err != nil {
			fail("building the hello world: %v\n%s", err, msg)
		}
		return out
	}
	rows := []startRow{{name: "Go hello world (go build)"}, {name: "fsrb --version"}}
	argv := [][]string{{buildHello("hello")}, {bin, "--version"}}
	if tags != "" || ldflags != "" {
		rows = append(rows, startRow{name: "Go hello world (built as fsrb is)"})
		argv = append(argv, []string{buildHello("hello-as-fsrb", "-tags="+tags, "-ldflags="+ldflags)})
	}
	for i := -3; i < rounds; i++ { // three rounds warm the page cache
		for k, a := range argv {
			cmd := exec.Command(a[0], a[1:]...)
			start := time.Now()
			if err := cmd.Run(); err != nil {
				fail("%v: %v", a, err)
			}
			d := time.Since(start)
			if i < 0 {
				continue
			}
			rows[k].times = append(rows[k].times, d)
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				rows[k].faults = append(rows[k].faults, ru.Minflt)
			}
		}
	}
	return rows
}

func printStartup(rows []startRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Printf("\nStart-up: each program run %d times in turns (wall time from fork to exit, as os/exec sees it; minor page faults).\n\n", len(rows[0].times))
	floors := []time.Duration{median(slices.Clone(rows[0].times))}
	header := "| program | median | p10-p90 | page faults (median) | x hello |"
	if len(rows) > 2 {
		floors = append(floors, median(slices.Clone(rows[2].times)))
		header += " x hello built as fsrb is |"
	}
	fmt.Println(header)
	fmt.Println("|---|--:|--:|--:|--:|" + strings.Repeat("--:|", len(floors)-1))
	for _, r := range rows {
		t := slices.Clone(r.times)
		slices.Sort(t)
		f := slices.Clone(r.faults)
		slices.Sort(f)
		var mf int64
		if len(f) > 0 {
			mf = f[len(f)/2]
		}
		fmt.Printf("| %s | %s | %s-%s | %d |", r.name, dur(t[len(t)/2]), dur(t[len(t)/10]), dur(t[len(t)*9/10]), mf)
		for _, floor := range floors {
			fmt.Printf(" %.2f |", float64(t[len(t)/2])/float64(floor))
		}
		fmt.Println()
	}
}
