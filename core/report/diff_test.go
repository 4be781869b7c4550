package report_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fsrb/fsrb/core/report"
)

func TestDiffColors(t *testing.T) {
	diff := "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n keep\n--- a rule\n+++ a plus\n \n\\ No newline at end of file\n" +
		"--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+new\n"
	var plain strings.Builder
	report.Diff(&plain, diff, false)
	if plain.String() != diff {
		t.Errorf("without colour the diff changed:\n%s", plain.String())
	}
	var got strings.Builder
	report.Diff(&got, diff, true)
	want := "\x1b[1m--- a/a.txt\x1b[m\n\x1b[1m+++ b/a.txt\x1b[m\n\x1b[36m@@ -1,3 +1,3 @@\x1b[m\n keep\n" +
		"\x1b[31m--- a rule\x1b[m\n\x1b[32m+++ a plus\x1b[m\n \n\\ No newline at end of file\n" +
		"\x1b[1m--- /dev/null\x1b[m\n\x1b[1m+++ b/new.txt\x1b[m\n\x1b[36m@@ -0,0 +1 @@\x1b[m\n\x1b[32m+new\x1b[m\n"
	if diff := cmp.Diff(want, got.String()); diff != "" {
		t.Errorf("coloured diff (-want +got):\n%s", diff)
	}
}
