package commit_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

// A plan's changes as Validate makes them (pieces of the old file and the
// blocks' texts, never built: issue 18) are written byte for byte as
// Bytes() would give them — a BOM, CRLF endings, a missing final newline,
// a file big enough for a hard-linked backup — with their modes, and the
// journal records the hashes of exactly what was written; Undo brings
// every old byte back.
func TestCommitWritesValidatedPieces(t *testing.T) {
	root, opt := workspace(t)
	var big strings.Builder
	for i := 0; big.Len() < 3<<20; i++ {
		fmt.Fprintf(&big, "line %d of a file over the hard-link size\n", i)
	}
	write(t, root, "big.txt", big.String(), 0o644)
	write(t, root, "crlf.txt", "\ufeffone\r\ntwo\r\nthree\r\nno final newline", 0o600)
	write(t, root, "run.sh", "#!/bin/sh\necho a\necho b", 0o755)
	before := snapshot(t, root)
	patch := "big.txt\n<<<<<<< SEARCH\nline 1000 of a file over the hard-link size\n=======\nline one thousand\nand one more\n>>>>>>> REPLACE\n" +
		"big.txt\n<<<<<<< SEARCH\nline 70000 of a file over the hard-link size\n=======\n>>>>>>> REPLACE\n" +
		"crlf.txt\n<<<<<<< SEARCH\ntwo\n=======\n2\nand 2 more\n>>>>>>> REPLACE\n" +
		"crlf.txt\n<<<<<<< SEARCH\nno final newline\n=======\nstill none\n>>>>>>> REPLACE\n" +
		"run.sh\n<<<<<<< SEARCH\necho b\n=======\necho c\n>>>>>>> REPLACE\n"
	disk, err := commit.NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	validate := func() *core.Plan {
		plan := core.Validate(core.Parse(patch, core.ParseOptions{}), disk, core.Options{Root: root})
		if !plan.OK() || len(plan.Files) != 3 {
			t.Fatalf("plan: %v", plan.Problems)
		}
		return plan
	}
	plan, want := validate(), validate() // plan's contents are never built
	if _, err := commit.Commit(root, plan.Files, opt); err != nil {
		t.Fatal(err)
	}
	ms := manifests(t, opt)
	if len(ms) != 1 {
		t.Fatalf("%d journals", len(ms))
	}
	files := ms[0]["files"].([]any)
	for i, fc := range want.Files {
		got := read(t, root, fc.Path)
		if got != string(fc.Bytes()) {
			t.Fatalf("%s = %q, want %q", fc.Path, trunc(got), trunc(string(fc.Bytes())))
		}
		f := files[i].(map[string]any)
		if f["path"] != fc.Path || f["new_sha256"] != sha(got) || f["old_sha256"] != sha(string(fc.Old)) {
			t.Fatalf("journal entry %v: want new %s, old %s", f, sha(got), sha(string(fc.Old)))
		}
		if m, w := snapshot(t, root)[fc.Path].Mode, before[fc.Path].Mode; m != w {
			t.Errorf("%s: mode %v, want %v", fc.Path, m, w)
		}
	}
	if !strings.HasSuffix(read(t, root, "crlf.txt"), "2\r\nand 2 more\r\nthree\r\nstill none") {
		t.Errorf("crlf.txt = %q", read(t, root, "crlf.txt"))
	}
	if _, err := commit.Undo(root, opt); err != nil {
		t.Fatal(err)
	}
	assertTree(t, root, before)
	assertNoTemps(t, root)
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func trunc(s string) string { return s[:min(len(s), 200)] }
