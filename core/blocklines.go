package core

// blockLines follows each splice's new lines through the splices after it,
// to where they sit in the final text. A later splice that covers part of
// them clips them; one that covers all of them drops the block.
func (t *target) blockLines() []BlockLines {
	// One list for all the file's blocks, not grown block by block
	// (BenchmarkW1's allocations).
	out := make([]BlockLines, 0, len(t.spans))
	for i, e := range t.spans {
		s, end := e.at, e.at+e.added // [s, end), 0-based lines
		gone := false
		for _, later := range t.spans[i+1:] {
			a, b, k := later.at, later.at+later.removed, later.added
			delta := k - (b - a)
			switch {
			case a == b && a <= s: // an insertion before
				s, end = s+k, end+k
			case a == b && a >= end: // an insertion after
			case a == b: // an insertion inside
				end += k
			case b <= s: // a replacement before
				s, end = s+delta, end+delta
			case a >= end: // after
			case a <= s && b >= end:
				gone = true
			case a <= s: // the front was replaced
				s, end = a+k, end+delta
			case b >= end: // the tail was replaced
				end = a
			default: // a replacement inside
				end += delta
			}
			if gone {
				break
			}
		}
		if !gone {
			out = append(out, BlockLines{Block: e.block, Line: s + 1, EndLine: end})
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
