// Package core is fsrb's engine: it reads a patch that a model wrote and
// decides, without touching the disk, what it would do to a workspace. Text
// and a way to read files (FS) go in; a Patch, a Plan and positioned
// Problems come out. The CLI, the language server and the MCP server all
// call it; it imports nothing else of fsrb's but its byte scans
// (internal/scan), no protocol types and no cgo (docs/ARCHITECTURE.md
// "Packages").
//
// The flow, and the files of each step:
//
//   - parse: Parse turns patch text into Blocks, each with its path,
//     operation, SEARCH and REPLACE text and byte spans in the patch
//     (parse.go, markers.go and block.go for the SEARCH/REPLACE dialects,
//     cline.go, applypatch.go and fileops.go, udiff.go, hashline.go,
//     toolcalls.go; detect.go chooses the format; span.go is the byte range
//     every position is). Parsing never fails: what is wrong comes back in
//     Patch.Problems.
//   - match: each block must match exactly once in its file, on LF text
//     held by a text buffer that gives the file's own bytes back
//     (textbuf.go, lines.go, match.go, kept.go; the byte scans, with their
//     AVX2 assembly, are internal/scan's); with Options.Fuzzy, a block
//     with no exact match climbs the fuzzy ladder (fuzzy.go,
//     fuzzy_text.go, fuzzy_view.go); apply-patch hunks and hashline blocks
//     are placed by their anchors (place.go). A block that matches nowhere
//     gets the closest candidate (closest.go, miss.go), or the earlier
//     block that changed its text (rewritten.go); an ambiguous one, every
//     place, explained by the Explainer a front end plugs in (explain.go).
//   - plan: Validate (plan.go; Revert, its inverse: invert.go) runs every
//     block, in patch order per file, and returns a Plan: the new content
//     of every file (change.go; textlines.go reads its lines without
//     building it, blocklines.go says where each block's lines end up) and
//     every problem of every block (problem.go), or the state of a patch
//     already applied (applied.go; an insert, which no rule can tell
//     applied, beside applied blocks: blindinsert.go). Paths are
//     confined to the root (path.go); a missing path may name one file
//     by its base name (namesake.go). New text that stands for code left out
//     ("// ... existing code ...") is refused (placeholder.go). Revalidate
//     takes over from an earlier Plan the first blocks of every file
//     whose bytes and those blocks are unchanged, and goes on from the
//     file's state after them, as an editor revalidates a patch
//     streaming in (memo.go).
//
// Messages name a block in its own format's words (words.go: SEARCH, a
// hunk's lines, an agent's old_string) and the fuzzy switch of the front
// end that runs (switch.go).
//
// The engine reads the workspace through FS (fs.go); MapFS (mapfs.go) is
// one in memory, for tests and benchmarks. Writing is core/commit's job
// (all or nothing, with a journal); reports are core/report's. StrEdit
// (strreplace.go, its applied state in strapplied.go) is the substring
// edit of agents' edit tools, validated the same way.
package core
