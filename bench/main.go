// Command bench is `make bench`: it generates the workloads (W1-W8,
// deterministic; docs/PERFORMANCE.md), runs W1-W7 in process (core.Validate
// as the CLI runs it, tree-sitter included) and as a whole fsrb process,
// and prints one table beside the floor: strings.Count in process and
// `grep -c -F` as a process, over the same bytes. W8 streams a chat answer
// into fsrb-lsp (stream.go) and prints a table of its own.
//
//	go run ./bench [-quick] [-fsrb path/to/fsrb] [-fsrb-lsp path/to/fsrb-lsp] [-only W1,W8]
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/pipeline"
)

var (
	quick   = flag.Bool("quick", false, "fewer runs (a smoke test)")
	fsrbBin = flag.String("fsrb", "", "the fsrb binary to run (default: build ./cmd/fsrb)")
	lspBin  = flag.String("fsrb-lsp", "", "the fsrb-lsp binary W8 runs (default: build ./cmd/fsrb-lsp); several, comma-separated, stream each answer in turns")
	only    = flag.String("only", "", "comma-separated workloads to run (W1,...,W8, start for the start-up row)")
	noLSP   = flag.Bool("no-lsp", false, "skip W7 and W8")
	keep    = flag.String("keep", "", "write the workloads' files and patches under this folder and keep them (for profiling)")
	// make bench passes how it built fsrb, so that the start-up row also
	// times a hello world built the same way (cgo's runtime and libc
	// linked in, statically where fsrb is).
	// W8's rows move by a fifth from one run to the next on a shared
	// machine: rounds streams every shape again, in turn, for medians.
	w8Rounds     = flag.Int("w8-rounds", 1, "stream W8's answers this many times each, in turns")
	w8Blocks     = flag.Int("w8-blocks", 0, "stream only W8's answers of this many blocks (0: all)")
	helloTags    = flag.String("hello-tags", "", "build tags of fsrb's build, for a second hello world built the same way")
	helloLDFlags = flag.String("hello-ldflags", "", "linker flags of fsrb's build, for a second hello world built the same way")
)

func main() {
	flag.Parse()
	tmp, err := os.MkdirTemp("", "fsrbbench")
	check(err)
	defer os.RemoveAll(tmp)
	// The commit runs' journals (and their backups: hard links to 100 MB
	// files) go with the run, not into the user's state folder.
	stateHome = filepath.Join(tmp, "state")
	work := tmp
	if *keep != "" {
		work = *keep
		check(os.MkdirAll(work, 0o755))
	}
	bin := *fsrbBin
	if bin == "" {
		bin = build(tmp, "fsrb")
	}
	timeV := "/usr/bin/time"
	if _, err := os.Stat(timeV); err != nil {
		fmt.Fprintln(os.Stderr, "bench: /usr/bin/time is missing (apt-get install time): no peak RSS figures")
		timeV = ""
	}
	var starts []startRow
	if selected("start") {
		rounds := 301
		if *quick {
			rounds = 31
		}
		fmt.Fprintln(os.Stderr, "bench: start-up (fsrb --version beside a Go hello world) ...")
		starts = runStartup(tmp, bin, rounds, *helloTags, *helloLDFlags)
	}
	var rows []row
	gens := []func() *workload{w1, w2, w3, func() *workload { return w4(5000) }, func() *workload { return w4(50000) }, w5, w6}
	for _, gen := range gens {
		w := gen()
		if !selected(w.Name) {
			continue
		}
		if *quick {
			w.runs, w.cliRuns = min(w.runs, 20), min(w.cliRuns, 3)
		}
		fmt.Fprintf(os.Stderr, "bench: %s (%s) ...\n", w.Name, w.Desc)
		rows = append(rows, runWorkload(w, work, bin, timeV))
	}
	if !*noLSP && selected("W7") {
		edits := 1000
		if *quick {
			edits = 50
		}
		fmt.Fprintln(os.Stderr, "bench: W7 (language server) ...")
		rows = append(rows, runLSP(tmp, edits)...)
	}
	var streams []streamRow
	var shapes []streamShape
	for _, sh := range streamShapes(*quick) {
		if !*noLSP && selected(sh.name) && (*w8Blocks == 0 || sh.blocks == *w8Blocks) {
			shapes = append(shapes, sh)
		}
	}
	if len(shapes) > 0 {
		servers := strings.Split(*lspBin, ",")
		if *lspBin == "" {
			servers = []string{build(tmp, "fsrb-lsp")}
		}
		streams = runStream(tmp, servers, shapes, *w8Rounds)
	}
	if len(rows) > 0 {
		printTable(rows)
	}
	printStream(streams)
	printLazyRatios(streams)
	printStartup(starts)
}

// build builds ./cmd/name into dir.
func build(dir, name string) string {
	bin := filepath.Join(dir, name)
	out, err := exec.Command("go", "build", "-o", bin, "./cmd/"+name).CombinedOutput()
	if err != nil {
		fail("building %s: %v\n%s", name, err, out)
	}
	return bin
}

func selected(name string) bool {
	if *only == "" {
		return true
	}
	for _, s := range strings.Split(*only, ",") {
		if strings.HasPrefix(name, strings.TrimSpace(s)) {
			return true
		}
	}
	return false
}

// row is one line of the table; zero fields print as "-".
type row struct {
	name, desc     string
	bytes          int
	inProc         time.Duration // median, core.Validate (+ tree-sitter) on files in memory
	core           time.Duration // median, core.Parse + core.Validate alone (no tree-sitter), as docs/PERFORMANCE.md compares with Cline
	firstIndex     time.Duration // median, strings.Index of each SEARCH in its file: Cline's one unchecked indexOf a block
	allocs, allocB float64       // per run
	floorIn        time.Duration // strings.Count over the same bytes
	cliDry, cliRun time.Duration // median wall of `fsrb --dry-run` and of `fsrb` (applies and commits)
	rssDry, rssRun int64         // peak RSS, bytes
	cliPlain       time.Duration // `fsrb --dry-run` on the files named .txt (no grammar, no syntax check)
	rssPlain       int64
	grep           time.Duration // median wall of grep -c -F
	grepRSS        int64
	note           string
	lsp            bool          // a W7 row: inProc is the didChange -> publishDiagnostics latency
	p90            time.Duration // W7: 90th percentile latency
	heapKiB        float64       // W7: live heap after the edits minus before
	rssKiB         float64       // W7: the process's RSS after the edits minus before
}

// validate is cmd/fsrb's validate: core with tree-sitter's explanations,
// then the syntax check of what changed.
func validate(p *core.Patch, fsys core.FS, fuzzy bool) *core.Plan {
	return pipeline.Validate(p, fsys, pipeline.Check{Options: core.Options{Fuzzy: fuzzy}, Checker: pipeline.Disk, Syntax: pipeline.SyntaxAlways})
}

func runWorkload(w *workload, tmp, bin, timeV string) row {
	r := row{name: w.Name, desc: w.Desc, bytes: w.Size()}
	// In process: parse once, validate many times on the files in memory.
	p := core.Parse(w.Patch, core.ParseOptions{})
	plan := validate(p, core.MapFS(w.Files), w.Fuzzy)
	if plan.OK() != w.WantOK {
		fail("%s: validation OK=%v, want %v: %v", w.Name, plan.OK(), w.WantOK, plan.Problems)
	}
	if !w.WantOK {
		r.note = string(plan.Problems.Errors()[0].Kind)
	}
	r.inProc, r.allocs, r.allocB = measure(w.runs, func() { validate(p, core.MapFS(w.Files), w.Fuzzy) })
	r.core, _, _ = measure(max(w.runs, 30), func() {
		core.Validate(core.Parse(w.Patch, core.ParseOptions{}), core.MapFS(w.Files), core.Options{Fuzzy: w.Fuzzy})
	})
	// Cline's way: the first place of each SEARCH, found by one
	// index, a second place never looked for.
	texts := w.Files
	r.firstIndex, _, _ = measure(max(w.runs, 30), func() {
		n := 0
		for _, b := range p.Blocks {
			n += strings.Index(texts[b.Path], b.Search)
		}
		sink += n
	})
	// The floor looks for the content of SEARCH's first line: with its
	// indentation, strings.Count falls back to Rabin-Karp.
	needle := strings.TrimSpace(w.Needle)
	r.floorIn, _, _ = measure(max(w.runs, 20), func() {
		n := 0
		for _, name := range w.Order {
			n += strings.Count(w.Files[name], needle)
		}
		sink += n
	})

	// Whole process, in a directory of its own.
	root := filepath.Join(tmp, strings.ReplaceAll(w.Name, " ", "_"))
	for _, name := range w.Order {
		path := filepath.Join(root, filepath.FromSlash(name))
		check(os.MkdirAll(filepath.Dir(path), 0o755))
		check(os.WriteFile(path, []byte(w.Files[name]), 0o644))
	}
	patchFile := filepath.Join(tmp, r.name+".patch")
	patchFile = strings.ReplaceAll(patchFile, " ", "_")
	check(os.WriteFile(patchFile, []byte(w.Patch), 0o644))
	wantExit := 0
	if !w.WantOK {
		wantExit = 1
	}
	fuzzy := []string{}
	if w.Fuzzy {
		fuzzy = []string{"--fuzzy"}
	}
	dry := append(append([]string{bin, "--dry-run"}, fuzzy...), patchFile)
	// The dry run, the same run on the files named .txt and grep are timed
	// in rounds, one of each a round: a batch of one after a batch of the
	// other measured the machine's mood as much as the programs (W2's dry
	// run drifted from one run of the table to the next).
	jobs := []job{{dir: root, wantExit: wantExit, args: func(int) []string { return dry }}}
	// The same run on the files named .txt, which no grammar claims: the
	// engine's own cost without tree-sitter's syntax check.
	plain := ""
	if strings.Contains(w.Patch, ".py\n") {
		plain = root + "_txt"
		for _, name := range w.Order {
			path := filepath.Join(plain, filepath.FromSlash(strings.TrimSuffix(name, ".py")+".txt"))
			check(os.MkdirAll(filepath.Dir(path), 0o755))
			check(os.WriteFile(path, []byte(w.Files[name]), 0o644))
		}
		plainPatch := strings.TrimSuffix(patchFile, ".patch") + "_txt.patch"
		check(os.WriteFile(plainPatch, []byte(strings.ReplaceAll(w.Patch, ".py\n<<<<<<<", ".txt\n<<<<<<<")), 0o644))
		argv := append(append([]string{bin, "--dry-run"}, fuzzy...), plainPatch)
		jobs = append(jobs, job{dir: plain, wantExit: wantExit, args: func(int) []string { return argv }})
	}
	var files []string
	for _, name := range w.Order {
		files = append(files, filepath.FromSlash(name))
	}
	grep := append([]string{"grep", "-c", "-F", "--", needle}, files...)
	jobs = append(jobs, job{dir: root, wantExit: -1, args: func(int) []string { return grep }})
	times, rss := interleaved(w.cliRuns, timeV, jobs...)
	r.cliDry, r.rssDry = times[0], rss[0]
	if plain != "" {
		r.cliPlain, r.rssPlain = times[1], rss[1]
		if *keep == "" {
			check(os.RemoveAll(plain))
		}
	}
	r.grep, r.grepRSS = times[len(jobs)-1], rss[len(jobs)-1]
	if w.Undo != "" {
		undoFile := strings.TrimSuffix(patchFile, ".patch") + ".undo"
		check(os.WriteFile(undoFile, []byte(w.Undo), 0o644))
		apply := append(append([]string{bin}, fuzzy...), patchFile)
		back := []string{bin, undoFile}
		// Odd runs apply the patch, even runs take it back (untimed
		// would be better, but the undo is the same work).
		r.cliRun, r.rssRun = process(w.cliRuns*2, root, 0, timeV, func(i int) []string {
			if i%2 == 0 {
				return apply
			}
			return back
		})
	}
	if *keep == "" {
		check(os.RemoveAll(root))
	}
	return r
}

// sink takes the results of measured loops so that the compiler keeps their
// work.
//
//lint:ignore U1000 written, never read, on purpose
var sink int

// measure runs f n times (after one warm-up) and returns the median time
// and the allocations per run.
func measure(n int, f func()) (time.Duration, float64, float64) {
	f()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	times := make([]time.Duration, n)
	for i := range n {
		start := time.Now()
		f()
		times[i] = time.Since(start)
	}
	runtime.ReadMemStats(&after)
	return median(times), float64(after.Mallocs-before.Mallocs) / float64(n), float64(after.TotalAlloc-before.TotalAlloc) / float64(n)
}

// median sorts t and returns its middle value, the upper one of two.
func median[T cmp.Ordered](t []T) T {
	slices.Sort(t)
	return t[len(t)/2]
}

// stateHome is the XDG_STATE_HOME of every fsrb the bench runs.
var stateHome string

var maxRSS = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)

// job is a command the driver times: args(i) is its i-th run, in dir;
// wantExit < 0 accepts any exit status.
type job struct {
	dir      string
	wantExit int
	args     func(i int) []string
}

// process times one job n times: the median wall time and the largest
// peak RSS.
func process(n int, dir string, wantExit int, timeV string, args func(i int) []string) (time.Duration, int64) {
	times, rss := interleaved(n, timeV, job{dir, wantExit, args})
	return times[0], rss[0]
}

// interleaved runs the jobs in n rounds, each job once a round, and
// returns each job's median wall time and largest peak RSS (through
// /usr/bin/time -v, which adds its own fork to the wall time: runs are
// timed without it, and two more runs measure memory).
func interleaved(n int, timeV string, jobs ...job) ([]time.Duration, []int64) {
	run := func(j job, argv []string) (time.Duration, string) {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = j.dir
		cmd.Env = append(os.Environ(), "NO_COLOR=1", "LC_ALL=C", "XDG_STATE_HOME="+stateHome)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		code := 0
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				fail("%v: %v", argv, err)
			}
			code = ee.ExitCode()
		}
		if j.wantExit >= 0 && code != j.wantExit {
			fail("%v in %s: exit %d, want %d\n%s", argv, j.dir, code, j.wantExit, out.String())
		}
		return d, out.String()
	}
	for _, j := range jobs {
		run(j, j.args(0)) // warm the page cache and the binary
		run(j, j.args(1)) // (and take an apply back)
	}
	times := make([][]time.Duration, len(jobs))
	for i := range n {
		for k, j := range jobs {
			d, _ := run(j, j.args(i))
			times[k] = append(times[k], d)
		}
	}
	meds := make([]time.Duration, len(jobs))
	rss := make([]int64, len(jobs))
	for k, j := range jobs {
		meds[k] = median(times[k])
		if timeV == "" {
			continue
		}
		for i := range 2 { // both halves of an apply/undo pair
			_, out := run(j, append([]string{timeV, "-v"}, j.args(i)...))
			if m := maxRSS.FindStringSubmatch(out); m != nil {
				kb, _ := strconv.ParseInt(m[1], 10, 64)
				rss[k] = max(rss[k], kb<<10)
			}
		}
	}
	return meds, rss
}

func printTable(rows []row) {
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	model := "?"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "model name") {
				model = strings.TrimSpace(l[strings.IndexByte(l, ':')+1:])
				break
			}
		}
	}
	load := ""
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		load = strings.Join(strings.Fields(string(data))[:3], " ")
	}
	fmt.Fprintf(w, "\nmachine: %s, %d CPUs, %s, load %s\n\n", model, runtime.NumCPU(), runtime.Version(), load)
	fmt.Fprintln(w, "| workload | bytes | core: Parse+Validate | first-match Index | in-process (median) | allocs | B alloc | MB/s | strings.Count | x floor | fsrb --dry-run | peak RSS | fsrb (commit) | peak RSS | --dry-run, .txt | peak RSS | grep -c -F | x grep | outcome |")
	fmt.Fprintln(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
	for _, r := range rows {
		if r.lsp {
			fmt.Fprintf(w, "| %s: %s | %s | - | - | %s median, %s p90 | %s | %s | %s | %s | %s | - | - | - | - | - | - | - | - | heap %+.0f KiB, RSS %+.0f KiB over the edits |\n",
				r.name, r.desc, size(int64(r.bytes)), dur(r.inProc), dur(r.p90), num(r.allocs), size(int64(r.allocB)),
				rate(r.bytes, r.inProc), dur(r.floorIn), ratio(r.inProc, r.floorIn), r.heapKiB, r.rssKiB)
			continue
		}
		outcome := "applies"
		if r.note != "" {
			outcome = r.note
		}
		fmt.Fprintf(w, "| %s: %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.name, r.desc, size(int64(r.bytes)), dur(r.core), dur(r.firstIndex), dur(r.inProc), num(r.allocs), size(int64(r.allocB)), rate(r.bytes, r.inProc),
			dur(r.floorIn), ratio(r.inProc, r.floorIn),
			dur(r.cliDry), size(r.rssDry), dur(r.cliRun), size(r.rssRun), dur(r.cliPlain), size(r.rssPlain),
			dur(r.grep), ratio(r.cliDry, r.grep), outcome)
	}
	fmt.Fprintln(w, "\ncore: Parse+Validate: core.Parse and core.Validate alone on files in memory (no tree-sitter), checking that every block matches exactly once; first-match Index: strings.Index of each SEARCH in its file, the first place only (Cline's indexOf: no second place looked for).")
	fmt.Fprintln(w, "in-process: core.Validate + tree-sitter (explanations, syntax check) on files in memory, as cmd/fsrb's validate; floor: strings.Count of SEARCH's first line over the same bytes.")
	fmt.Fprintln(w, "whole process: median wall time; peak RSS from /usr/bin/time -v; \"fsrb (commit)\" applies the patch and takes it back, alternately; x grep = fsrb --dry-run / grep -c -F over the same files; \".txt\": the same dry run on the files named .txt (no grammar: no tree-sitter syntax check).")
}

func dur(d time.Duration) string {
	switch {
	case d == 0:
		return "-"
	case d < time.Millisecond:
		return fmt.Sprintf("%.3f ms", float64(d)/1e6)
	case d < 100*time.Millisecond:
		return fmt.Sprintf("%.2f ms", float64(d)/1e6)
	default:
		return fmt.Sprintf("%.0f ms", float64(d)/1e6)
	}
}

func size(n int64) string {
	switch {
	case n == 0:
		return "-"
	case n < 10<<10:
		return fmt.Sprintf("%d B", n)
	case n < 10<<20:
		return fmt.Sprintf("%.0f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	}
}

func num(f float64) string {
	if f >= 100 {
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.1f", f)
}

func rate(n int, d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f", float64(n)/d.Seconds()/1e6)
}

func ratio(a, b time.Duration) string {
	if a == 0 || b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f", float64(a)/float64(b))
}

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
	os.Exit(1)
}
