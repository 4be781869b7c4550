package core

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Kind is the stable code of a problem. The CLI's --json "kind", the
// language server's diagnostic code and the tests all use these strings, so
// they never change once published.
type Kind string

const (
	KindMalformed      Kind = "malformed"       // a marker out of place, a stray REPLACE, an unescaped divider
	KindIncomplete     Kind = "incomplete"      // a block cut short (no divider or no REPLACE marker)
	KindNoBlocks       Kind = "no-blocks"       // the patch holds no edit block
	KindNoPath         Kind = "no-path"         // the first block has no file path above it
	KindInheritedPath  Kind = "inherited-path"  // note: a headerless block reuses the previous block's path
	KindNotFound       Kind = "not-found"       // SEARCH matches nowhere
	KindAmbiguous      Kind = "ambiguous"       // SEARCH matches in more than one place
	KindPartialLine    Kind = "partial-line"    // SEARCH matches only inside a line (strict mode)
	KindAlreadyApplied Kind = "already-applied" // the block is in its applied state (an error, or with Options.Applied a note)
	KindNotApplied     Kind = "not-applied"     // a revert: the block to undo is not in its applied state
	KindIrreversible   Kind = "irreversible"    // a revert: the block's inverse cannot be found or made from the patch
	KindMissingFile    Kind = "missing-file"    // the target file does not exist
	KindFileExists     Kind = "file-exists"     // a create block on a non-empty existing file
	KindOutsideRoot    Kind = "outside-root"    // the path leaves the workspace
	KindBadPath        Kind = "bad-path"        // .git internals, NUL bytes, folders, device files
	KindBinary         Kind = "binary"          // the target holds a NUL byte
	KindEmptyBlock     Kind = "empty-block"     // empty SEARCH and empty REPLACE
	KindReadError      Kind = "read-error"      // the file could not be read
	KindFuzzy          Kind = "fuzzy"           // note: applied by a rung of the fuzzy ladder
	KindSyntax         Kind = "syntax"          // warning: the edit leaves a syntax error (tree-sitter)
	KindConflict       Kind = "conflict"        // the file changed on disk after validation (commit)
	KindCommit         Kind = "commit"          // writing failed; everything was rolled back
	KindOverwrite      Kind = "overwrite"       // warning: Add File / Move replaces an existing file (apply-patch)
	KindStaleHash      Kind = "stale-hash"      // a hashline SEARCH line's hash no longer matches the file
	KindLineHint       Kind = "line-hint"       // note: the only match lies away from the patch's line hint
	KindFence          Kind = "fence"           // note: a code fence wrapped inside SEARCH and REPLACE was dropped
	KindPlaceholder    Kind = "placeholder"     // new text holds a line that stands for code left out ("// ... existing code ...")
	KindProsePath      Kind = "prose-path"      // note: the block's path comes from the prose line above it ("In `src/app.py`, change:")
	KindResolvedPath   Kind = "resolved-path"   // note: a missing path was taken as the one file of its base name (fuzzy)
)

// Severity orders problems: only errors stop a commit.
type Severity int

const (
	SeverityError Severity = iota
	SeverityWarning
	SeverityInfo
)

func (s Severity) String() string {
	switch s {
	case SeverityWarning:
		return "warning"
	case SeverityInfo:
		return "info"
	}
	return "error"
}

// Candidate is a place in a target file: a near miss for "not found", or
// one of the occurrences of an ambiguous block.
type Candidate struct {
	Line       int     // 1-based first line in the file as the block saw it
	EndLine    int     // 1-based last line, inclusive
	Context    string  // the first non-blank line of the place, trimmed
	Similarity float64 // 0..1 for closest matches; 1 for exact occurrences
	Text       string  // the file's text at that place (whole lines, LF)
	Diff       string  // unified diff from SEARCH to Text, for near misses

	// Explanation tells an ambiguous block's place apart (enclosing
	// definition, widened block); empty without an Explainer.
	Explanation Explanation
}

// Problem is a positioned finding. Problems are values collected in a list
// (like go/scanner's ErrorList) so that every one of them reaches the user
// in one run.
type Problem struct {
	Kind     Kind
	Severity Severity
	Block    int    // 1-based block number, 0 when the problem belongs to no block
	Path     string // the file as the patch names it; "" for problems of the patch itself
	Message  string // what is wrong, one sentence
	Hint     string // what to do about it
	Span     Span   // where in the patch text
	Line     int    // 1-based line in the target file, when there is one
	Snippet  string // the first non-blank SEARCH line

	Candidates []Candidate
}

func (p Problem) Error() string {
	var b strings.Builder
	if p.Path != "" {
		b.WriteString(p.Path)
		b.WriteString(": ")
	}
	if p.Block > 0 && !p.NamesBlock() {
		fmt.Fprintf(&b, "block #%d: ", p.Block)
	}
	b.WriteString(p.Message)
	return b.String()
}

// NamesBlock reports whether the message opens with its own block
// ("block #4 has no file path; …"), so that whoever prints it does not
// name the block a second time.
func (p Problem) NamesBlock() bool {
	rest, ok := strings.CutPrefix(p.Message, fmt.Sprintf("block #%d", p.Block))
	return ok && p.Block > 0 && (rest == "" || rest[0] < '0' || rest[0] > '9')
}

// MentionsBlock reports whether the message names its own block anywhere
// ("applying block #4 leaves …"); "block #12" does not name block #1.
func (p Problem) MentionsBlock() bool {
	if p.Block <= 0 {
		return false
	}
	own := fmt.Sprintf("block #%d", p.Block)
	for rest := p.Message; ; {
		i := strings.Index(rest, own)
		if i < 0 {
			return false
		}
		rest = rest[i+len(own):]
		if rest == "" || rest[0] < '0' || rest[0] > '9' {
			return true
		}
	}
}

// Problems is a list of problems with helpers for the common questions.
type Problems []Problem

// Errors returns only the problems that stop a commit.
func (ps Problems) Errors() Problems {
	var out Problems
	for _, p := range ps {
		if p.Severity == SeverityError {
			out = append(out, p)
		}
	}
	return out
}

// HasErrors reports whether any problem stops a commit.
func (ps Problems) HasErrors() bool {
	for _, p := range ps {
		if p.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Sort orders problems by block number, then position in the patch, keeping
// problems of the patch itself (block 0) first.
func (ps Problems) Sort() {
	// slices, not sort.SliceStable, whose reflection allocates once a
	// Validate, where a one-block Validate makes few (BenchmarkW5's
	// allocations).
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if a.Block != b.Block {
			return cmp.Compare(a.Block, b.Block)
		}
		return cmp.Compare(a.Span.Start, b.Span.Start)
	})
}
