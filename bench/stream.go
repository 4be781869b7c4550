package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/fsrb/fsrb/bench/gen"
)

// W8: a chat plugin streaming a model's Markdown answer into an editor
// buffer, 20 characters every 20 ms, each a ranged didChange appended at
// the end, to the built fsrb-lsp as a child process. A child rather than
// the server in process (W7): what the user pays is the server process's
// CPU while the answer streams in (its collector included, the client's
// JSON encoding excluded), which the kernel counts for that process alone,
// and its peak RSS.
const (
	streamChunk = 20
	streamEvery = 20 * time.Millisecond
)

// streamRow is one W8 result.
type streamRow struct {
	blocks, bytes, chunks int
	wall, cpu             time.Duration // the stream, first chunk to final diagnostics
	last                  time.Duration // the last chunk to its diagnostics
	peakRSS               int64
	publishes             int  // publishDiagnostics received during the stream
	errorPublishes        int  // of which showed an error
	lensAsks              int  // codeLens requests, one on each refresh
	floor                 bool // streamed into a plain-text document
	round                 int  // of -w8-rounds, from 0
	server                int  // of -fsrb-lsp's list, from 0
	shape                 streamShape
}

// streamShape is one answer W8 streams: its blocks, how they are spread
// over files, and whether the client asks for lenses on each refresh.
type streamShape struct {
	name    string // "W8" (ten blocks a file), "W8-dense" (ten files), "W8-lazy" (lazy code blocks): for -only
	blocks  int
	perFile string
	answer  func(n int) *gen.Workload
	lenses  bool
	pair    string // "lazy" or "twin": the two answers whose CPU per byte is compared (printLazyRatios)
}

// streamShapes are W8's answers: ten blocks a file, with lens requests
// (the floor streamed after the first); the same blocks over ten files of
// 300 lines, 50 a file for 500 blocks, with and without lens requests;
// and lazy code blocks naming their file, five a file of 300 lines.
func streamShapes(quick bool) []streamShape {
	shapes := []streamShape{
		{"W8", 50, "10", gen.Answer, true, ""},
		{"W8", 500, "10", gen.Answer, true, ""},
		{"W8-dense", 50, "5", gen.DenseAnswer, true, ""},
		{"W8-dense", 50, "5", gen.DenseAnswer, false, ""},
		{"W8-dense", 500, "50", gen.DenseAnswer, true, ""},
		{"W8-dense", 500, "50", gen.DenseAnswer, false, ""},
		// Lazy code blocks, as chat tools ask for them, ten a file as in W8.
		{"W8-lazy", 50, "10", gen.LazyAnswer, true, "lazy"},
		{"W8-lazy", 500, "10", gen.LazyAnswer, true, "lazy"},
		// The same edits as SEARCH/REPLACE blocks: the format's cost apart.
		{"W8-lazy", 50, "10", gen.LazyTwinAnswer, true, "twin"},
		{"W8-lazy", 500, "10", gen.LazyTwinAnswer, true, "twin"},
	}
	if quick {
		shapes = []streamShape{shapes[0], shapes[2]}
	}
	return shapes
}

func runStream(tmp string, servers []string, shapes []streamShape, rounds int) []streamRow {
	var rows []streamRow
	for round := range max(1, rounds) {
		rows = append(rows, streamRound(tmp, servers, shapes, round)...)
	}
	return rows
}

// streamRound streams each shape once with each server, in turns; the
// first round also streams the first shape as plain text (the floor).
// A lazy answer and its twin (streamShape.pair) stream side by side, to
// two servers at once: the machine's load moves a stream's CPU time by
// a tenth from one moment to the next, more than the two answers differ,
// and a ratio of two streams that shared their moments keeps less of it.
func streamRound(tmp string, servers []string, shapes []streamShape, round int) []streamRow {
	var rows []streamRow
	for k, sh := range shapes {
		twin := twinOf(shapes, k)
		if sh.pair == "twin" && twin >= 0 {
			continue // streamed beside its lazy answer
		}
		for s, server := range servers {
			var got []streamRow
			if twin >= 0 {
				got = streamPair(tmp, server, sh, shapes[twin])
			} else {
				got = streamShapeOnce(tmp, server, sh, k == 0 && round == 0 && s == 0, "W8", 0)
			}
			for _, r := range got {
				r.round, r.server = round, s
				rows = append(rows, r)
			}
		}
	}
	return rows
}

// twinOf is the index of the shape that shapes[k] pairs with (its lazy
// answer or its twin, of the same name and size), or -1.
func twinOf(shapes []streamShape, k int) int {
	sh := shapes[k]
	for j, o := range shapes {
		if sh.pair != "" && o.pair != "" && o.pair != sh.pair && o.name == sh.name && o.blocks == sh.blocks {
			return j
		}
	}
	return -1
}

// streamPair streams a lazy answer and its twin side by side, each to a
// server of its own in a workspace of its own, the twin's chunks half a
// period after the lazy's, so that the two servers seldom wake at once.
func streamPair(tmp, lspBin string, lazy, twin streamShape) []streamRow {
	var rows [2][]streamRow
	var wg sync.WaitGroup
	for i, sh := range []streamShape{lazy, twin} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows[i] = streamShapeOnce(tmp, lspBin, sh, false, "W8-"+sh.pair, time.Duration(i)*streamEvery/2)
		}()
	}
	wg.Wait()
	return append(rows[0], rows[1]...)
}

// streamShapeOnce streams one shape to one server, in the workspace
// tmp/dir, its first chunk delay after the start, and as plain text
// after it when floor is set.
func streamShapeOnce(tmp, lspBin string, sh streamShape, floor bool, dir string, delay time.Duration) []streamRow {
	var rows []streamRow
	n := sh.blocks
	w := sh.answer(n)
	answer := w.Patch
	root := filepath.Join(tmp, dir)
	// Written an hour ago, as a workspace's files are: a file changed
	// a moment before the server reads it is read again on every
	// chunk (a stamp that young may hide a change).
	hourAgo := time.Now().Add(-time.Hour)
	for _, name := range w.Order {
		path := filepath.Join(root, filepath.FromSlash(name))
		check(os.MkdirAll(filepath.Dir(path), 0o755))
		check(os.WriteFile(path, []byte(w.Files[name]), 0o644))
		check(os.Chtimes(path, hourAgo, hourAgo))
	}
	fmt.Fprintf(os.Stderr, "bench: %s %d blocks, %s a file, lens requests %v (%d bytes, %.0f s) ...\n", sh.name, n, sh.perFile, sh.lenses, len(answer), (time.Duration(len(answer)/streamChunk) * streamEvery).Seconds())
	r := streamOnce(root, lspBin, answer, true, sh.lenses, delay)
	r.blocks, r.shape = n, sh
	rows = append(rows, r)
	if floor {
		// The floor: the same stream into a plain-text document,
		// which the server keeps and never analyses.
		f := streamOnce(root, lspBin, answer, false, sh.lenses, 0)
		f.blocks, f.shape = n, sh
		rows = append(rows, f)
	}
	check(os.RemoveAll(root))
	return rows
}

// childRWC is the child's stdin and stdout as one connection.
type childRWC struct {
	io.ReadCloser
	io.WriteCloser
}

func (c childRWC) Close() error {
	c.WriteCloser.Close()
	return c.ReadCloser.Close()
}

func streamOnce(root, lspBin, answer string, patch, lenses bool, delay time.Duration) streamRow {
	cmd := exec.Command(lspBin)
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	check(err)
	out, err := cmd.StdoutPipe()
	check(err)
	check(cmd.Start())
	c := dialLSP(root, childRWC{out, in}, lenses)
	name, lang := "answer.md", "markdown"
	if !patch {
		name, lang = "answer.txt", "plaintext"
	}
	u := uri.File(filepath.Join(root, name))
	ctx := context.Background()
	check(c.conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: protocol.LanguageKind(lang), Version: 1, Text: "",
	}}))
	c.mu.Lock()
	c.count = true
	if lenses {
		c.lensDoc = u
	}
	c.mu.Unlock()
	r := streamRow{bytes: len(answer), floor: !patch}
	var line, col uint32
	v := int32(1)
	time.Sleep(delay)
	tick := time.NewTicker(streamEvery)
	cpu0 := procCPU(cmd.Process.Pid)
	start := time.Now()
	var lastSent time.Time
	for at := 0; at < len(answer); at += streamChunk {
		<-tick.C
		chunk := answer[at:min(at+streamChunk, len(answer))]
		v++
		pos := protocol.Position{Line: line, Character: col}
		check(c.conn.Notify(ctx, protocol.MethodTextDocumentDidChange, map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": v},
			"contentChanges": []any{map[string]any{"range": protocol.Range{Start: pos, End: pos}, "text": chunk}},
		}))
		lastSent = time.Now()
		r.chunks++
		if nl := strings.Count(chunk, "\n"); nl > 0 {
			line += uint32(nl)
			col = uint32(len(chunk) - strings.LastIndexByte(chunk, '\n') - 1)
		} else {
			col += uint32(len(chunk))
		}
	}
	tick.Stop()
	if !patch {
		// No diagnostics to wait for: a request's answer comes after
		// every change before it.
		var syms json.RawMessage
		_, err := c.conn.Call(ctx, protocol.MethodTextDocumentDocumentSymbol, map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
		check(err)
	} else if n := c.wait(u, v); n != 0 {
		fail("W8: %d errors on the whole answer", n)
	}
	r.last = time.Since(lastSent)
	r.wall = time.Since(start)
	r.cpu = procCPU(cmd.Process.Pid) - cpu0
	r.peakRSS = procPeakRSS(cmd.Process.Pid)
	c.mu.Lock()
	r.publishes, r.errorPublishes, r.lensAsks = c.publishes, c.errorPublishes, c.lensAsks
	c.mu.Unlock()
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, _ = c.conn.Call(tctx, protocol.MethodShutdown, nil, nil)
	_ = c.conn.Notify(tctx, protocol.MethodExit, nil)
	if err := cmd.Wait(); err != nil {
		fail("W8: fsrb-lsp: %v", err)
	}
	c.close()
	return r
}

// procCPU is the CPU time of a process so far: the sum of its threads'
// run times in /proc/PID/task/*/schedstat, in nanoseconds, or, on a kernel
// without schedstat, its user and system time from /proc/PID/stat, in
// clock ticks of 10 ms, too coarse to tell two builds apart on one
// answer. A thread that ends between two readings takes its time with it;
// the Go runtime keeps its threads while the process runs.
func procCPU(pid int) time.Duration {
	if d, ok := schedCPU(pid); ok {
		return d
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		fail("W8: %v (the CPU figures need Linux's /proc)", err)
	}
	// Fields after the command name, which is in parentheses: utime and
	// stime are the 14th and 15th fields of the line.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// schedCPU sums the first field of each thread's schedstat: the time it
// ran, in nanoseconds. ok is false when the kernel keeps no schedstat.
func schedCPU(pid int) (time.Duration, bool) {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, false
	}
	var sum time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			if os.IsNotExist(err) {
				continue // the thread ended since the listing
			}
			return 0, false
		}
		f := strings.Fields(string(data))
		if len(f) == 0 {
			return 0, false
		}
		ns, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, false
		}
		sum += time.Duration(ns)
	}
	return sum, true
}

// procPeakRSS is the peak resident set of a running process, from /proc.
// Not the rusage's maxrss at exit: a child started with vfork, as os/exec
// starts one, counts there the resident set of the parent it was forked
// from, this benchmark's, which grows as it builds the answers.
func procPeakRSS(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		fail("W8: %v (the RSS figures need Linux's /proc)", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")), 10, 64)
			if err != nil {
				fail("W8: reading VmHWM in /proc/%d/status: %v", pid, err)
			}
			return n << 10
		}
	}
	fail("W8: no VmHWM in /proc/%d/status", pid)
	return 0
}

func printStream(rows []streamRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Println("\nW8 stream: a Markdown answer appended to fsrb-lsp (a child process) in 20-character ranged didChanges every 20 ms, the client asking for the answer's code lenses on every codeLens/refresh as editors do (or not: \"lens requests\" no); CPU share = the server's CPU time (its threads' run times) / wall time over the stream; last chunk -> diagnostics: to the publishDiagnostics of the last version.")
	fmt.Println()
	fmt.Println("| blocks | a file | answer | chunks | stream | server CPU | CPU share | last chunk -> diagnostics | peak RSS | publishes | with an error | lens requests |")
	fmt.Println("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, r := range rows {
		name, last := fmt.Sprint(r.blocks), dur(r.last)
		if r.floor {
			name, last = fmt.Sprintf("%d, as plain text (floor)", r.blocks), "-"
		}
		if r.round > 0 {
			name += fmt.Sprintf(" (round %d)", r.round+1)
		}
		if r.server > 0 {
			name += fmt.Sprintf(" (server %d)", r.server+1)
		}
		asks := fmt.Sprint(r.lensAsks)
		if !r.shape.lenses {
			asks = "no"
		}
		fmt.Printf("| %s | %s | %s | %d | %.1f s | %s | %.1f%% | %s | %s | %d | %d | %s |\n",
			name, r.shape.perFile, size(int64(r.bytes)), r.chunks, r.wall.Seconds(), dur(r.cpu),
			100*r.cpu.Seconds()/r.wall.Seconds(), last, size(r.peakRSS), r.publishes, r.errorPublishes, asks)
	}
}

// printLazyRatios prints, for each server and answer size, the lazy
// answer's server CPU per byte over its SEARCH/REPLACE twin's, one
// ratio a round (the two streamed in the same round), with their
// median, mean and spread: a round moves by a tenth on a shared
// machine, more than the difference two builds make, so one round's
// ratio says little.
func printLazyRatios(rows []streamRow) {
	type key struct{ server, blocks, round int }
	lazy, twin := map[key]streamRow{}, map[key]streamRow{}
	for _, r := range rows {
		k := key{r.server, r.blocks, r.round}
		switch {
		case r.floor:
		case r.shape.pair == "lazy":
			lazy[k] = r
		case r.shape.pair == "twin":
			twin[k] = r
		}
	}
	type group struct{ server, blocks int }
	ratios := map[group][]float64{}
	var groups []group
	for k, l := range lazy {
		t, ok := twin[k]
		if !ok || l.cpu <= 0 || t.cpu <= 0 {
			continue
		}
		g := group{k.server, k.blocks}
		if ratios[g] == nil {
			groups = append(groups, g)
		}
		ratios[g] = append(ratios[g], (l.cpu.Seconds()/float64(l.bytes))/(t.cpu.Seconds()/float64(t.bytes)))
	}
	if len(groups) == 0 {
		return
	}
	slices.SortFunc(groups, func(a, b group) int { return cmp.Or(cmp.Compare(a.blocks, b.blocks), cmp.Compare(a.server, b.server)) })
	fmt.Println("\nW8-lazy: the lazy answer's server CPU per byte over its SEARCH/REPLACE twin's, each round's pair, the two streamed side by side.")
	fmt.Println()
	fmt.Println("| blocks | server | rounds | median | mean | standard deviation | lowest-highest |")
	fmt.Println("|--:|--:|--:|--:|--:|--:|--:|")
	for _, g := range groups {
		r := ratios[g]
		mid := median(r) // sorts r
		mean := 0.0
		for _, x := range r {
			mean += x
		}
		mean /= float64(len(r))
		sd := 0.0
		for _, x := range r {
			sd += (x - mean) * (x - mean)
		}
		if len(r) > 1 {
			sd = math.Sqrt(sd / float64(len(r)-1))
		}
		fmt.Printf("| %d | %d | %d | %.3f | %.3f | %.3f | %.3f-%.3f |\n", g.blocks, g.server+1, len(r), mid, mean, sd, r[0], r[len(r)-1])
	}
}
