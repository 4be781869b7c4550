package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

// TestCasesTwice runs every case that applies through the built fsrb a
// second time, on the tree the first run left: a patch run twice is never
// written twice, whatever its format (docs/formats.md "Applied
// patches"): the tree stays byte for byte as the first run left it. The
// second run exits 0 (the files hold the patch), says there is nothing to
// do, and notes each block as applied; --json lists every block under
// "applied". The cases in notRecognised are refused instead (exit 1,
// nothing written), for the reason given; the rule that decides is
// core's. Skipped: a block placed by a --fuzzy rung (only exact text
// counts as applied) and a patch that changes nothing.
func TestCasesTwice(t *testing.T) {
	changesNothing := map[string]bool{"hashline_cline_markers": true}
	const (
		chained = "a later block edits the text an earlier block wrote: the earlier block's text no longer stands"
		moved   = "a moved file: its hunks name the old path, which is gone"
		atEOF   = "an *** End of File hunk whose context also stands earlier in the file"
		fenced  = "SEARCH and REPLACE wrapped in fences that are dropped only where SEARCH matches"
		insert  = "an insert cannot be recognised: beside applied blocks, it is refused as probably applied"
	)
	notRecognised := map[string]string{
		"sequential_blocks":              chained,
		"symlink_inside":                 chained,
		"create_nested":                  chained,
		"ap_move_reported":               moved,
		"ap_overwrites_warn":             moved,
		"udiff_create_delete_rename":     moved,
		"udiff_git_rename_and_empty_new": moved,
		"ap_end_of_file":                 atEOF,
		"ap_place_end_of_file_and_bom":   atEOF,
		"fence_inside_bodies":            fenced,
		"tc_insert_empty_line":           insert,
		"tc_text_editor":                 insert,
	}
	ran, recognised := 0, 0
	for _, tc := range loadCases(t) {
		if tc.Exit != 0 || tc.Has("--dry-run") || tc.Has("--blocks") || tc.Has("--revert") || tc.Has("--partial") {
			continue
		}
		t.Run(tc.Name, func(t *testing.T) {
			if tc.Has("--fuzzy") {
				t.Skip("placed by a --fuzzy rung: only exact text counts as applied")
			}
			if changesNothing[tc.Name] {
				t.Skip("the patch changes nothing")
			}
			root, patchFile := tc.setup(t)
			args := append(append([]string{}, tc.Args...), patchFile)
			if code, stdout, stderr := runCLI(t, root, args...); code != 0 {
				t.Fatalf("first run: exit %d\n%s%s", code, stdout, stderr)
			}
			once := tree(t, root)
			text := slices.DeleteFunc(slices.Clone(args), func(a string) bool { return a == "--json" })
			code, stdout, stderr := runCLI(t, root, text...)
			if diff := cmp.Diff(once, tree(t, root)); diff != "" {
				t.Errorf("the second run wrote (-after first +after second):\n%s", diff)
			}
			ran++
			if why, ok := notRecognised[tc.Name]; ok {
				if code != 1 || !strings.Contains(stderr, "Nothing was written.") {
					t.Errorf("second run: exit %d, want 1 and nothing written (%s); if it is now recognised, drop it from notRecognised\nstdout:\n%s\nstderr:\n%s", code, why, stdout, stderr)
				}
				return
			}
			recognised++
			if code != 0 {
				t.Errorf("second run: exit %d, want 0 (already applied)\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			if !strings.HasPrefix(stdout, "[SUCCESS] Nothing to do: ") {
				t.Errorf("second run: stdout does not say there is nothing to do:\n%s", stdout)
			}
			// --json names the applied blocks: every block of the patch,
			// each with the note the text run printed.
			_, out, _ := runCLI(t, root, append([]string{"--json"}, text...)...)
			var rep struct {
				OK, Written bool
				Applied     []int
				Notes       []struct {
					Block         int
					Kind, Message string
				}
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("--json: %v\n%s", err, out)
			}
			var noted []int
			for _, n := range rep.Notes {
				if n.Kind != "already-applied" {
					continue
				}
				noted = append(noted, n.Block)
				if !strings.Contains(stderr, "Note: "+n.Message+"\n") {
					t.Errorf("second run: no note %q:\n%s", n.Message, stderr)
				}
			}
			if want := blockNumbers(t, root, tc); !rep.OK || rep.Written || !slices.Equal(rep.Applied, want) || !slices.Equal(noted, want) {
				t.Errorf("--json: ok %v, written %v, applied %v, noted %v; want ok, not written, %v", rep.OK, rep.Written, rep.Applied, noted, want)
			}
			if diff := cmp.Diff(once, tree(t, root)); diff != "" {
				t.Errorf("the run with --json wrote (-after first +after it):\n%s", diff)
			}
		})
	}
	if ran < 60 || recognised < 50 {
		t.Errorf("only %d cases ran twice, %d of them recognised as applied", ran, recognised)
	}
}

// blockNumbers are the numbers of the patch's blocks, parsed as the CLI
// parses it in root.
func blockNumbers(t *testing.T, root string, tc testCase) []int {
	t.Helper()
	disk, err := commit.NewDisk(root)
	if err != nil {
		t.Fatal(err)
	}
	patch := core.Parse(decode(tc.Patch), core.ParseOptions{Format: tc.Arg("--format"), Snippets: !tc.Has("--snippets=false"), Exists: func(name string) bool {
		_, err := disk.ReadFile(name)
		return err == nil
	}})
	var out []int
	for _, b := range patch.Blocks {
		out = append(out, b.Number)
	}
	return out
}
