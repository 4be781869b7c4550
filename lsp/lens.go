package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
)

type fileRead struct {
	data []byte
	err  error
}

// aloneCheck is a check of a block on its own: the block, the bytes of
// its file it was checked on, and whether it validated.
type aloneCheck struct {
	block core.Block
	file  []byte
	fuzzy bool
	ok    bool
}

// appliesAlone reports whether block n validates on its own, as "Apply
// block" runs it. Only a block after another block of the same file can
// differ from its status in the whole patch, so only those are checked
// (the caller knows which). The answer of the last such check is taken
// when it was of the same block on the very same bytes of its file (the
// memory the read cache hands back for a file that did not change):
// editors ask for every lens again after each change of the patch, and a
// chat answer streaming in changes it many times a second, so validating
// each block again for each ask cost more than the change's own analysis
// (W8 of make bench). files holds the targets read so far for the lenses
// being made: a file of several blocks is read once.
func (s *snapshot) appliesAlone(a *analysis, n int, files map[string]fileRead) bool {
	b := &a.patch.Blocks[n-1]
	res, _ := a.result(n)
	r, read := files[res.Path]
	if !read {
		r.data, r.err = s.ReadFile(res.Path)
		files[res.Path] = r
	}
	// A move reads a second file, which the check does not keep.
	keep := r.err == nil && b.Op != core.OpMove && b.MoveTo == ""
	if keep {
		if c, ok := s.prior.checkedAlone(a.doc.uri, n); ok && c.fuzzy == s.settings.Fuzzy && core.SameBlock(&c.block, b) && core.SameMemory(c.file, r.data) {
			return c.ok
		}
	}
	p := s.planBlock(a, n, true)
	ok := p != nil && p.OK()
	if keep {
		s.prior.putAlone(a.doc.uri, n, aloneCheck{block: *b, file: r.data, fuzzy: s.settings.Fuzzy, ok: ok})
	}
	return ok
}

// aheadBlock is the block whose "Apply" lens the client will ask a
// check alone for (CodeLens), to run that check ahead of the ask: the
// document's last whole block, when it applies after another block of
// its file; 0 when there is none. Run right after the validation that
// read the same file, block and outlines, the check finds them in the
// processor's caches; at the client's ask, up to lensEvery later and
// after more chunks of a streamed answer, it reads them all again from
// memory. Only the last block: that is the one a streamed answer just
// closed, and looking through every block's kept check on every chunk
// costs more than it saves.
func aheadBlock(a *analysis) int {
	blocks := a.patch.Blocks
	n := len(blocks)
	for n > 0 && blocks[n-1].Incomplete {
		n--
	}
	if n == 0 {
		return 0
	}
	b := &blocks[n-1]
	if res, ok := a.result(b.Number); !ok || res.Status != core.StatusApplies {
		return 0
	}
	for i := range blocks[:n-1] {
		if blocks[i].Path == b.Path {
			return b.Number
		}
	}
	return 0
}

// CodeLens shows each block's status above it, with "Apply" on the blocks
// that apply and "Revert" on the ones applied, and on the first line
// "Apply all blocks" when every block still to apply does, or "Revert all
// blocks" when every block is applied.
func (s *Server) CodeLens(ctx context.Context, params *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	snap := s.checkDisk()
	a := snap.analyze(params.TextDocument.URI)
	out := []protocol.CodeLens{}
	if a == nil {
		return out, nil
	}
	uri := string(a.doc.uri)
	switch {
	case a.applies():
		out = append(out, protocol.CodeLens{
			Range:   toRange(a.doc.mapper, lineSpan(a.doc.mapper, 0)),
			Command: protocol.Command{Title: "Apply all blocks", Command: CommandApplyAll, Arguments: args(uri)},
		})
	case a.reverts():
		out = append(out, protocol.CodeLens{
			Range:   toRange(a.doc.mapper, lineSpan(a.doc.mapper, 0)),
			Command: protocol.Command{Title: "Revert all blocks", Command: CommandRevertAll, Arguments: args(uri)},
		})
	}
	files, paths := map[string]fileRead{}, map[string]bool{}
	for _, b := range a.patch.Blocks {
		rng := toRange(a.doc.mapper, markerSpan(a.doc.mapper, &b))
		// The status lens runs nothing; its arguments say which block it
		// is about, as the Apply and Revert lenses' do, so that a client
		// never reads the number back out of the title.
		out = append(out, protocol.CodeLens{Range: rng, Command: protocol.Command{
			Title: fmt.Sprintf("#%d %s", b.Number, a.status(b.Number)), Arguments: args(uri, b.Number),
		}})
		// "Apply" runs the block alone: a block that applies only after the
		// blocks before it (a hunk after another of the same file) gets
		// the status, not the button.
		afterSameFile := paths[b.Path]
		paths[b.Path] = true
		if res, ok := a.result(b.Number); ok && res.Status == core.StatusApplies && (!afterSameFile || snap.appliesAlone(a, b.Number, files)) {
			out = append(out, protocol.CodeLens{Range: rng, Command: protocol.Command{
				Title: "Apply", Command: CommandApplyBlock, Arguments: args(uri, b.Number),
			}})
		}
		if res, ok := a.result(b.Number); ok && res.Status == core.StatusApplied {
			out = append(out, protocol.CodeLens{Range: rng, Command: protocol.Command{
				Title: "Revert", Command: CommandRevertBlock, Arguments: args(uri, b.Number),
			}})
		}
		out = append(out, skipLens(a, &b, rng)...)
	}
	return out, nil
}
