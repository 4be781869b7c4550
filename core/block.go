package core

// Op is what a block does to its file, as far as the patch text alone tells.
// Whether a modification ends up deleting the file (delete-by-emptying) is
// decided by the plan, which sees the file.
type Op string

const (
	OpModify Op = "modify" // SEARCH/REPLACE on an existing file
	OpCreate Op = "create" // empty SEARCH, or a NEW_FILE block: the whole new content
	OpShell  Op = "shell"  // a shell command block of a chat answer: listed, never run

	// Operations of the apply-patch and unified diff dialects.
	OpDeleteFile Op = "delete-file" // *** Delete File: the file must exist; it is removed
	OpMove       Op = "move"        // *** Move to: the file (as edited so far) takes the new path

	// OpSnippet is a chat answer's fenced code block that names its file:
	// a whole file, whole definitions, a lazy block with omission markers
	// or a line range. The plan resolves it against the file (answer.go).
	OpSnippet Op = "snippet"
)

// Dialect names the notation a block was written in (docs/ARCHITECTURE.md
// "Dialects").
type Dialect string

const (
	DialectSearchReplace Dialect = "search-replace" // fsrb / aider "diff": path line, then markers
	DialectFenced        Dialect = "diff-fenced"    // aider "diff-fenced": path inside the fence
	DialectNewFile       Dialect = "new-file"       // Pyxis NEW_FILE block
	DialectCline         Dialect = "cline"          // Cline: ------- SEARCH / ======= / +++++++ REPLACE
	DialectRoo           Dialect = "roo"            // Roo Code: :start_line: hints and a ------- line
	DialectApplyPatch    Dialect = "apply-patch"    // *** Begin Patch (Codex apply_patch); one Block a hunk
	DialectUdiff         Dialect = "udiff"          // unified diff as models write it; one Block a hunk
	DialectHashline      Dialect = "hashline"       // SEARCH lines written "N:hhhh|text"
	DialectChat          Dialect = "chat"           // a fenced code block naming its file (OpSnippet)
)

// Format is how the whole patch text was read: the dialect family chosen
// (forced by the caller, or detected) and why, so that a report can say
// which dialect was assumed.
type Format struct {
	Name   string // "search-replace" (dialects 1-5 and 8), "apply-patch", "udiff"
	Forced bool   // chosen by the caller (--format), not detected
	Reason string // why it was detected: "line 1 is \"*** Begin Patch\""
}

// HashRef is one SEARCH line of a hashline block: the line number and the
// hash it was written with (see HashLine).
type HashRef struct {
	Line int    // 1-based, in the file as it was read
	Hash string // 4 lowercase hex digits
}

// Block is one edit of a patch: its target, its texts and where every part
// of it sits in the patch text, so that an editor can underline each.
type Block struct {
	Number  int     // 1-based across the whole patch
	Path    string  // the path as written, stripped of markdown
	Op      Op      // see Op
	Dialect Dialect // the notation it was written in
	Search  string  // LF text, escapes resolved; "" for a create
	Replace string  // LF text, escapes resolved

	// Literal lists the 0-based lines of Replace that the patch marked
	// with "fsrb:keep" (the marker is gone from Replace): omission
	// placeholders meant literally (placeholder.go).
	Literal []int
	// plain says that no line of Replace may be an omission placeholder
	// or carry its keep marker: the SEARCH/REPLACE parser saw each line's
	// first and last bytes (mayBePlaceholder), and neither keepLiterals
	// nor the validator need look again. Blocks made any other way leave
	// it false and are looked at.
	plain bool

	// InheritedFrom is the number of the block whose path this headerless
	// block reuses (aider's rule), or 0 when the block has its own header.
	InheritedFrom int

	// Incomplete marks a block cut short (no divider or closing marker);
	// its texts are unusable and the plan skips it.
	Incomplete bool

	// Label names the block the way its dialect does, for messages:
	// "hunk 2 of *** Update File: a.py (patch line 14)". Empty for 1-4.
	Label string

	// Apply-patch hunks: the "@@ anchor" lines above the hunk, outermost
	// first (each is looked for after the one before); EOF for a hunk
	// ending with "*** End of File" (it must match at the end of the
	// file); Section numbers the "*** Update File" section the hunk belongs
	// to (hunks of one section match top to bottom, each after the one
	// before). MoveTo is the destination of an OpMove block.
	Anchors []string
	EOF     bool
	Section int
	MoveTo  string

	// HintLine and HintEndLine (1-based, inclusive, in the file as it was
	// before the patch) are where the patch says SEARCH sits: Roo's
	// :start_line:/:end_line:, a unified diff's "@@ -l,n". Hints only pick
	// among several matches; 0 when absent.
	HintLine, HintEndLine int

	// Hashes holds, for a hashline block, the line number and hash of
	// every SEARCH line (Search holds the texts without the prefixes).
	Hashes []HashRef

	// OpStrReplace and OpInsert (strreplace.go): ReplaceAll replaces every
	// place of Search; Expected > 0 is how many places Search must have;
	// InsertAfter is the line Replace goes after (0: the top).
	ReplaceAll  bool
	Expected    int
	InsertAfter int

	// OpSnippet blocks (a chat answer's code block): Replace holds the
	// code as the fence holds it, without a "// filepath:" first line;
	// Lang is the fence's language ("" when it names none); FromLine and
	// ToLine (1-based, inclusive, in the file as the answer saw it) are the
	// lines a CopilotChat block replaces, 0 when it names none; Omissions
	// are the 0-based lines of Replace that are omission markers
	// ("// ... existing code ...").
	Lang             string
	FromLine, ToLine int
	Omissions        []int

	// Overwrite lets a create replace an existing file (apply-patch's Add
	// File, as in Codex), with a warning.
	Overwrite bool
	// CRLF: a create whose text, as an agent's tool call gave it, ends
	// every line with CRLF; the file is written so (README "Decisions").
	CRLF bool

	// Inverts is, for a block of an inverted patch (Invert), the Op of the
	// block it undoes; "" otherwise. It makes validation stricter where a
	// revert needs it: a delete-file must find exactly the content the
	// create wrote, and a create that gives back an emptied file must find
	// that file gone.
	Inverts Op

	Span          Span // the whole block, header (if any) to closing marker
	Header        Span // the path line; empty when inherited
	PathSpan      Span // the path inside the header line
	SearchMarker  Span // "<<<<<<< SEARCH" or "<<<<<<< NEW_FILE"
	SearchBody    Span // empty for NEW_FILE
	Divider       Span // "=======", empty for NEW_FILE
	ReplaceBody   Span // the REPLACE body, or the NEW_FILE content
	ReplaceMarker Span // ">>>>>>> REPLACE" or ">>>>>>> NEW_FILE"
}

// ShellBlock is a fenced shell command block of a chat answer. fsrb never
// runs it; it is listed so that the user sees what the answer asked for.
type ShellBlock struct {
	Lang string // the fence's language: bash, sh, console, ...
	Text string // the commands, LF
	Span Span   // the whole fence
	Body Span   // the commands
}

// Patch is a parsed patch: the blocks in order and what was wrong with the
// text itself. Parsing never stops at the first problem.
type Patch struct {
	Text     string
	Format   Format // how the text was read
	Blocks   []Block
	Shell    []ShellBlock
	Problems Problems // malformed blocks, no blocks, no path; notes about inherited paths
}

// Block returns the block numbered n, or nil. Blocks are in number order
// except in an inverted patch (Invert), which keeps the numbers of the
// blocks it undoes, in reverse.
func (p *Patch) Block(n int) *Block {
	if n >= 1 && n <= len(p.Blocks) && p.Blocks[n-1].Number == n {
		return &p.Blocks[n-1]
	}
	for i := range p.Blocks {
		if p.Blocks[i].Number == n {
			return &p.Blocks[i]
		}
	}
	return nil
}
