package core

import (
	"strings"
	"testing"
)

// FuzzValidatePlan builds a file from the fuzzer's lines with generated
// endings (LF, CRLF or mixed, a BOM, no final newline), then a patch of up
// to eight blocks, each taking whole lines of the file as the blocks before
// it left it. An independent model of the file (a list of lines, each with
// its own ending) says what the plan must do: a block whose SEARCH sits in
// more than one place fails as ambiguous; otherwise the plan's new bytes are
// exactly the model's — so bytes outside the matched ranges never change,
// new lines take the file's most frequent ending, a BOM and a missing final
// newline survive, and a file left with no line is deleted. WriteTo writes
// the same bytes. A second file
// that no block names never shows in the plan.
//
//	go test ./core -run '^$' -fuzz '^FuzzValidatePlan$'
func FuzzValidatePlan(f *testing.F) {
	f.Add("a\nb\nc\nd\ne", uint8(0), "\x01\x02\x10\x03\x01\x21", "X\nY\nZ")
	f.Add("one\ntwo\nthree", uint8(1|8|16), "\x02\x00\x01", "2")
	f.Add("x\ny\nx\ny", uint8(2), "\x00\x01\x00", "q")
	f.Add("only", uint8(16), "\x00\x00\x00", "")
	f.Add("a\nb\nc", uint8(2|8), "\x00\x02\x00\x00\x00\x01", "new\nlines\n")
	f.Add("f(x)\n  g()\n\treturn\n", uint8(1|16), "\x01\x01\x31", "  h()\n\n")
	f.Add("a\nb\nc\n", uint8(0), "\x00\x02\x21", "x\n// ... existing code ...")
	f.Fuzz(func(t *testing.T, src string, style uint8, script string, repl string) {
		lines := fuzzLines(src, 200)
		if len(lines) == 0 || len(script) > 24 {
			return
		}
		m := &lineModel{bom: style&8 != 0, noEOL: style&16 != 0}
		for m.noEOL && len(lines) > 0 && lines[len(lines)-1] == "" {
			// "a\n" + "" without a final newline is the file "a\n".
			lines = lines[:len(lines)-1]
		}
		if len(lines) == 0 {
			return
		}
		for i, l := range lines {
			crlf := false
			switch style % 4 {
			case 1:
				crlf = true
			case 2:
				crlf = (i+int(style>>5))%3 == 0
			}
			m.lines = append(m.lines, l)
			m.crlf = append(m.crlf, crlf)
		}
		orig := m.bytes()
		m.newCRLF = m.majorityCRLF()
		replLines := fuzzLines(repl, 20)

		var blocks []Block
		wantAmbiguous, wantApplied, wantPlaceholder := 0, 0, 0
		for i := 0; i+3 <= len(script) && len(m.lines) > 0; i += 3 {
			from := int(script[i]) % len(m.lines)
			n := 1 + int(script[i+1])%min(5, len(m.lines)-from)
			search := strings.Join(m.lines[from:from+n], "\n") + "\n"
			if isBlank(search) {
				continue
			}
			rs := int(script[i+2]) % (len(replLines) + 1)
			re := min(len(replLines), rs+int(script[i+2]>>4)%4)
			newLines := replLines[rs:re]
			replace := ""
			if len(newLines) > 0 {
				replace = strings.Join(newLines, "\n") + "\n"
			}
			if isBlank(replace) {
				replace, newLines = "", nil
			}
			num := len(blocks) + 1
			blocks = append(blocks, Block{Number: num, Path: "f.txt", Op: OpModify, Search: search, Replace: replace})
			if m.standsApplied(m.lines[from:from+n], newLines) {
				wantApplied = num
				break
			}
			if m.count(m.lines[from:from+n]) > 1 {
				wantAmbiguous = num
				break
			}
			if i, _ := placeholderLine(&blocks[num-1], replace, search); i >= 0 {
				wantPlaceholder = num
				break
			}
			m.splice(from, n, newLines)
		}
		if len(blocks) == 0 {
			return
		}
		fsys := MapFS{"f.txt": string(orig), "other.txt": "untouched\n"}
		plan := Validate(&Patch{Blocks: blocks}, fsys, Options{Root: "/w"})
		if wantApplied > 0 {
			found := false
			for _, p := range plan.Problems {
				found = found || p.Block == wantApplied && p.Kind == KindAlreadyApplied
			}
			if !found {
				t.Fatalf("block #%d stands applied, but no already-applied problem: %v", wantApplied, plan.Problems)
			}
			return
		}
		if wantAmbiguous > 0 {
			if plan.OK() {
				t.Fatalf("block #%d is ambiguous, but the plan is OK", wantAmbiguous)
			}
			found := false
			for _, p := range plan.Problems {
				found = found || p.Block == wantAmbiguous && p.Kind == KindAmbiguous
			}
			if !found {
				t.Fatalf("no ambiguous problem for block #%d: %v", wantAmbiguous, plan.Problems)
			}
			return
		}
		if wantPlaceholder > 0 {
			refusedPlaceholder(t, plan, wantPlaceholder)
			return
		}
		if !plan.OK() {
			t.Fatalf("plan failed: %v\nfile %q\nblocks %+v", plan.Problems, orig, blocks)
		}
		if len(plan.Files) != 1 || plan.Files[0].Path != "f.txt" {
			t.Fatalf("plan files = %+v, want f.txt only", plan.Files)
		}
		fc := plan.Files[0]
		if string(fc.Old) != string(orig) || !fc.Existed {
			t.Fatalf("Old = %q, want %q", fc.Old, orig)
		}
		if len(m.lines) == 0 {
			if fc.Action != ActionDelete || fc.Bytes() != nil {
				t.Fatalf("every line removed: action %s, new %q; want a delete", fc.Action, fc.Bytes())
			}
			return
		}
		if want := m.bytes(); fc.Action != ActionModify || string(fc.Bytes()) != string(want) {
			t.Fatalf("%s:\norig %q\ngot  %q\nwant %q\nblocks %+v", fc.Action, orig, fc.Bytes(), want, blocks)
		}
		checkWriteTo(t, "WriteTo", fc, m.bytes())
	})
}

// fuzzLines cuts s into at most limit lines that a file model can hold:
// no NUL (binary), no CR (it would make a line ending), no BOM character.
func fuzzLines(s string, limit int) []string {
	s = strings.NewReplacer("\x00", "", "\r", "").Replace(s)
	for strings.Contains(s, bom) { // removing one may join the bytes of another
		s = strings.ReplaceAll(s, bom, "")
	}
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) > limit {
		lines = lines[:limit]
	}
	return lines
}

// lineModel is a text file as a list of lines, each with its own ending.
type lineModel struct {
	bom, noEOL bool
	lines      []string
	crlf       []bool
	newCRLF    bool
}

func (m *lineModel) bytes() []byte {
	var b strings.Builder
	if m.bom {
		b.WriteString(bom)
	}
	for i, l := range m.lines {
		b.WriteString(l)
		if i == len(m.lines)-1 && m.noEOL {
			break
		}
		if m.crlf[i] {
			b.WriteString("\r\n")
		} else {
			b.WriteString("\n")
		}
	}
	return []byte(b.String())
}

// majorityCRLF: new text takes the most frequent ending, the first on a tie
// (docs/ARCHITECTURE.md "Fine print"); the last line of a file without a final
// newline has none.
func (m *lineModel) majorityCRLF() bool {
	crlf, lf, first := 0, 0, -1
	for i, c := range m.crlf {
		if i == len(m.lines)-1 && m.noEOL {
			break
		}
		if c {
			crlf++
		} else {
			lf++
		}
		if first < 0 {
			first = map[bool]int{true: 1, false: 0}[c]
		}
	}
	return crlf > 0 && (crlf > lf || crlf == lf && first == 1)
}

// count is how many places (overlapping ones too) hold seq as whole lines.
func (m *lineModel) count(seq []string) int {
	return len(m.places(seq))
}

// places are the lines where seq starts, overlapping places too.
func (m *lineModel) places(seq []string) []int {
	var out []int
	for i := 0; i+len(seq) <= len(m.lines); i++ {
		ok := true
		for j := range seq {
			if m.lines[i+j] != seq[j] {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, i)
		}
	}
	return out
}

// standsApplied is the applied state, worked out on the model: REPLACE
// stands once and SEARCH stands nowhere outside it (README "Applied
// patches"). Such a block is refused, never written twice.
func (m *lineModel) standsApplied(search, repl []string) bool {
	if len(repl) == 0 || strings.Join(search, "\n") == strings.Join(repl, "\n") {
		return false
	}
	at := m.places(repl)
	if len(at) != 1 {
		return false
	}
	for _, s := range m.places(search) {
		if s < at[0] || s+len(search) > at[0]+len(repl) {
			return false
		}
	}
	return true
}

func (m *lineModel) splice(from, n int, with []string) {
	lines := append(append(append([]string{}, m.lines[:from]...), with...), m.lines[from+n:]...)
	crlf := append([]bool{}, m.crlf[:from]...)
	for range with {
		crlf = append(crlf, m.newCRLF)
	}
	m.lines, m.crlf = lines, append(crlf, m.crlf[from+n:]...)
}
