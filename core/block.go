package core

// Op is what a block does to its file, as far as the patch text alone tells.
// Whether a modification ends up deleting the file (delete-by-emptying) is
// decided by the plan, which sees the file.
type Op string

const (
	OpModify Op = "modify" // SEARCH/REPLACE on an existing file
	OpCreate Op = "create" // empty SEARCH, or a NEW_FILE block: the whole new content
	OpShell  Op = "shell"  // a shell command block of a chat answer: listed, never run
)

// Dialect names the notation a block was written in (DESIGN.md "Dialects").
type Dialect string

const (
	DialectSearchReplace Dialect = "search-replace" // fsrb / aider "diff": path line, then markers
	DialectFenced        Dialect = "diff-fenced"    // aider "diff-fenced": path inside the fence
	DialectNewFile       Dialect = "new-file"       // Pyxis NEW_FILE block
)

// Block is one edit of a patch: its target, its texts and where every part
// of it sits in the patch text, so that an editor can underline each.
type Block struct {
	Number  int     // 1-based across the whole patch
	Path    string  // the path as written, stripped of markdown
	Op      Op      // see Op
	Dialect Dialect // the notation it was written in
	Search  string  // LF text, escapes resolved; "" for a create
	Replace string  // LF text, escapes resolved

	// InheritedFrom is the number of the block whose path this headerless
	// block reuses (aider's rule), or 0 when the block has its own header.
	InheritedFrom int

	// Incomplete marks a block cut short (no divider or closing marker);
	// its texts are unusable and the plan skips it.
	Incomplete bool

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
	Blocks   []Block
	Shell    []ShellBlock
	Problems Problems // malformed blocks, no blocks, no path; notes about inherited paths
}
