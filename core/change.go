package core

// Action is what a commit does to one file.
type Action string

const (
	ActionModify Action = "modify"
	ActionCreate Action = "create"
	ActionDelete Action = "delete" // the blocks left the file empty (DESIGN.md "Operations")
)

// FileChange is the planned new state of one file: what the commit writes.
// Old is the exact content that was validated; the commit refuses to write
// when the file on disk no longer holds it.
type FileChange struct {
	Path    string // real path, slash-separated, relative to the root
	Display string // the path as the patch first wrote it
	Action  Action
	Existed bool   // the file existed at validation (an existing 0-byte file may be "created")
	Old     []byte // the validated content; nil when the file did not exist
	New     []byte // the content to write; nil for ActionDelete. Read-only: it may share memory with strings
	Blocks  []int  // the numbers of the blocks applied to this file, in order
	// MovedFrom is the file (as the patch wrote it) whose content this one
	// took by an apply-patch "*** Move to:"; "" otherwise. The source is a
	// FileChange of its own, a delete unless later blocks recreated it.
	MovedFrom string
	// Lines says where each block's new text ended up in New, so that what
	// is found in the new content (a syntax error) can be laid at the door
	// of the block that wrote it.
	Lines []BlockLines
}

// BlockLines is where one block's new text sits in FileChange.New: lines
// Line to EndLine, 1-based and inclusive (EndLine = Line-1 when the block
// only removed lines). A block whose text a later block replaced whole is
// left out.
type BlockLines struct {
	Block, Line, EndLine int
}
