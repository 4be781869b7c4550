package core

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/bench/gen"
	"github.com/fsrb/fsrb/internal/scan"
)

// eachScan runs f once at every level of the byte scans (internal/scan),
// the others switched off, so that the engine is tested on every path a
// machine may take. A level this build or CPU cannot run is a skipped
// subtest that says why.
func eachScan(t *testing.T, f func(t *testing.T)) {
	for _, l := range scan.Levels() {
		t.Run(l.Name, func(t *testing.T) {
			if l.Missing != "" {
				t.Skip(l.Missing)
			}
			defer scan.Use(l.Name)()
			f(t)
		})
	}
}

// TestScanLevelsAgreeOnWorkloads validates the benchmark workloads, and
// each again after a splice of CRLF or a NUL into its first file, with
// every level of the byte scans (eachScan): the AVX2 routines and the Go
// loops. Every level must give the same plan, to the line numbers,
// messages and new bytes.
func TestScanLevelsAgreeOnWorkloads(t *testing.T) {
	type named struct {
		name string
		w    *gen.Workload
	}
	var cases []named
	for _, c := range []named{{"W1", gen.W1()}, {"W2", gen.W2()}, {"W3", gen.W3()}, {"W4", gen.W4(5000)}, {"W5", gen.W5()}} {
		cases = append(cases, c)
		for _, odd := range []string{"\r\n", "\x00"} {
			files := map[string]string{}
			first := ""
			for name, text := range c.w.Files {
				files[name] = text
				if first == "" || name < first {
					first = name
				}
			}
			text := files[first]
			at := strings.Index(text[len(text)/2:], "\n") + len(text)/2
			files[first] = text[:at] + strings.ReplaceAll(text[at:at+1], "\n", odd) + text[at+1:]
			w := *c.w
			w.Files = files
			cases = append(cases, named{fmt.Sprintf("%s with %q", c.name, odd), &w})
		}
	}
	for _, c := range cases {
		want := ""
		eachScan(t, func(t *testing.T) {
			plan := Validate(Parse(c.w.Patch, ParseOptions{}), MapFS(c.w.Files), Options{Fuzzy: c.w.Fuzzy})
			var b strings.Builder
			for _, r := range plan.Blocks {
				fmt.Fprintf(&b, "%+v\n", r)
			}
			for _, p := range plan.Problems {
				fmt.Fprintf(&b, "%s %d %d %s %v\n", p.Kind, p.Block, p.Line, p.Message, p.Candidates)
			}
			for _, f := range plan.Files {
				fmt.Fprintf(&b, "%s %q\n", f.Path, f.Bytes())
			}
			if got := b.String(); want == "" {
				want = got
			} else if got != want {
				t.Fatalf("%s: the plan differs from the first level's:\n%s\nwant:\n%s", c.name, got, want)
			}
		})
	}
}
