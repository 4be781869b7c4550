// Package casefile reads the engine's cases, testdata/cases/*.txtar: one
// patch, the tree before and after, and what a run must report. Two
// passes run them: core's (go test ./core: Parse, Validate and Revert on
// core.MapFS, checking the problems' kinds and the files) and the CLI's
// (go test ./cmd/fsrb: the built binary on the disk, byte for byte). An
// archive holds:
//
//	-- patch.fsrb --        the patch (also patch.md, patch.txt: the first "patch." file)
//	-- in/PATH --           the tree before ("in/dir/" is an empty folder)
//	-- out/PATH --          the tree after; without out/ files the tree must not change,
//	                        or be empty with an "out-empty" section
//	-- outside/PATH --      files beside the root (targets of escapes, never to change)
//	-- symlinks --          lines "in/link -> target" (target as written)
//	-- args --              CLI flags, one per line
//	-- exit --              the expected exit status (default 0)
//	-- problems --          every problem: "error #2 not-found README.md", one a line
//	-- stdout --, -- stderr --   the CLI's exact output, when given
//	-- grammar --           the case needs tree-sitter (a chat snippet placed
//	                        by structure): core's pass, which has none, skips it
//
// What each pass checks: core checks the problems (all but the "syntax"
// warnings, which only tree-sitter gives), whether the plan is OK
// (exit 0), and the tree after, for every case without symlinks or
// outside files (those are the disk's, core/commit's). The CLI checks the
// exit status, the tree on disk (symlinks and outside files included) and
// stdout/stderr byte for byte, tree-sitter's explanations and syntax
// warnings included.
//
// File data may write a carriage return as <CR>, a BOM as a leading <BOM>,
// and end with a line <NOEOL> for a file without a final newline (Decode).
package casefile

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/txtar"
)

// Case is one archive, as written (file data not yet decoded).
type Case struct {
	Name     string // the file's base name without .txtar
	File     string
	Archive  *txtar.Archive
	Patch    string // the patch section's data
	PatchExt string // ".fsrb", ".md", ...
	Args     []string
	Exit     int
	Problems []string // the problems section's lines
	HasProbs bool     // the case has a problems section
	In, Out  map[string]string
	Outside  map[string]string
	Links    [][2]string // symlink lines: {"in/link", "target"}
	OutGiven bool        // out/ files or out-empty (else Out is In)
	Stdout   *string     // nil when the case does not give it
	Stderr   *string
	Grammar  bool // needs tree-sitter: only the CLI's pass runs it
}

// Load reads every *.txtar case in dir, in name order.
func Load(dir string) ([]*Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no cases in %s", dir)
	}
	var cases []*Case
	for _, file := range files {
		c, err := Read(file)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// Read reads one case.
func Read(file string) (*Case, error) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	c := &Case{Name: strings.TrimSuffix(filepath.Base(file), ".txtar"), File: file, Archive: ar,
		In: map[string]string{}, Out: map[string]string{}, Outside: map[string]string{}}
	for _, f := range ar.Files {
		data := string(f.Data)
		switch {
		case strings.HasPrefix(f.Name, "patch.") && c.PatchExt == "":
			c.Patch, c.PatchExt = data, strings.TrimPrefix(f.Name, "patch")
		case strings.HasPrefix(f.Name, "in/"):
			c.In[strings.TrimPrefix(f.Name, "in/")] = data
		case strings.HasPrefix(f.Name, "out/"):
			c.Out[strings.TrimPrefix(f.Name, "out/")] = data
			c.OutGiven = true
		case f.Name == "out-empty":
			c.OutGiven = true
		case strings.HasPrefix(f.Name, "outside/"):
			c.Outside[strings.TrimPrefix(f.Name, "outside/")] = data
		case f.Name == "symlinks":
			for _, l := range NonEmptyLines(data) {
				from, to, ok := strings.Cut(l, " -> ")
				if !ok {
					return nil, fmt.Errorf("%s: bad symlink line %q", file, l)
				}
				c.Links = append(c.Links, [2]string{from, to})
			}
		case f.Name == "args":
			c.Args = NonEmptyLines(data)
		case f.Name == "exit":
			c.Exit, err = strconv.Atoi(strings.TrimSpace(data))
			if err != nil {
				return nil, fmt.Errorf("%s: bad exit section", file)
			}
		case f.Name == "problems":
			c.Problems, c.HasProbs = NonEmptyLines(data), true
		case f.Name == "stdout":
			c.Stdout = &data
		case f.Name == "stderr":
			c.Stderr = &data
		case f.Name == "grammar":
			c.Grammar = true
		default:
			return nil, fmt.Errorf("%s: unknown section %q", file, f.Name)
		}
	}
	if c.PatchExt == "" {
		return nil, fmt.Errorf("%s: no patch section", file)
	}
	if !c.OutGiven {
		c.Out = c.In
	}
	return c, nil
}

// NonEmptyLines is s's lines that hold more than spaces.
func NonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}

// Decode turns the notations archives use for what txtar cannot show into
// bytes: "<CR>" is a carriage return, a leading "<BOM>" a byte order mark,
// and a last line "<NOEOL>" means the file has no final newline.
func Decode(s string) string {
	s = strings.ReplaceAll(s, "<CR>", "\r")
	s = strings.TrimSuffix(s, "\n<NOEOL>\n")
	if rest, ok := strings.CutPrefix(s, "<BOM>"); ok {
		s = "\uFEFF" + rest
	}
	return s
}

// Has reports whether the case's args hold flag a.
func (c *Case) Has(a string) bool {
	for _, x := range c.Args {
		if x == a {
			return true
		}
	}
	return false
}

// Arg returns the value of a flag given as "--flag value" or
// "--flag=value", or "".
func (c *Case) Arg(flag string) string {
	for i, a := range c.Args {
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v
		}
		if a == flag && i+1 < len(c.Args) {
			return c.Args[i+1]
		}
	}
	return ""
}
