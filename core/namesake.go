package core

import (
	"fmt"
	"path"
)

// A path that does not exist may still name a file by its base name: a
// model wrote "src/util.py" for "app/src/util.py". When exactly one file
// of the workspace has that base name (Namesakes), the missing-file report
// says "did you mean"; with Options.Fuzzy the block edits that file, with
// a note. Two or more files of that name are no guess at all.

// namesake returns the one file of the workspace whose base name is the
// missing path's, if the FS can list them and there is exactly one. t is
// the missing path's state: a file this patch deleted or created gets no
// guess.
func (v *validator) namesake(written string, t *target) (string, bool) {
	if t.existed || t.touched {
		return "", false
	}
	if guess, ok := v.guesses[written]; ok {
		return guess, guess != ""
	}
	guess := ""
	if ns, ok := v.fsys.(Namesakes); ok {
		if base := path.Base(written); base != "." && base != "/" {
			if files := ns.FilesNamed(base, 2); len(files) == 1 && files[0] != written {
				guess = files[0]
			}
		}
	}
	if v.guesses == nil {
		v.guesses = map[string]string{}
	}
	v.guesses[written] = guess
	return guess, guess != ""
}

// resolveNamesake is, under Options.Fuzzy, the state of the file a missing
// path stands for (namesake), with a note; t itself when there is none.
func (v *validator) resolveNamesake(b *Block, t *target) *target {
	guess, ok := v.namesake(b.Path, t)
	if !ok {
		return t
	}
	nt := v.targetOf(guess)
	if nt.err != nil || !nt.exists {
		return t
	}
	v.plan.Problems = append(v.plan.Problems, Problem{
		Kind: KindResolvedPath, Severity: SeverityInfo, Block: b.Number, Path: b.Path, Span: b.Header,
		Message: fmt.Sprintf("%s does not exist; editing %s, the only file named %s in the workspace", b.Path, guess, path.Base(guess)),
		Hint:    fmt.Sprintf("write %s in the patch to make this explicit", guess),
	})
	return nt
}
