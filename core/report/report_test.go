package report_test

import (
	"bytes"
	"flag"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/report"
	"github.com/fsrb/fsrb/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the stdout, stderr and json sections of testdata/*.txtar")

// TestGolden renders the reports of testdata/*.txtar. An archive holds
//
//	-- patch.fsrb --   the patch (the first "patch." section)
//	-- in/PATH --      the files it runs on (core.MapFS)
//	-- run --          how it ran, "key: value" lines: mode (apply, dry-run,
//	                   partial, blocks), fuzzy, revert, color, snippets (chat
//	                   answers' named code blocks read), commit-error (the commit
//	                   failed with this message, and was rolled back),
//	                   recovery (an interrupted commit is pending: nothing ran)
//	-- stdout --, -- stderr --   report.Human's text (report.Blocks' for blocks)
//	-- json --         report.JSON's object (report.Blocks' for blocks)
//
// The plan is core's alone (no tree-sitter: no syntax warnings, no
// explanations of ambiguous places). -update rewrites the three outputs.
func TestGolden(t *testing.T) {
	golden.Each(t, "testdata/*.txtar", func(t *testing.T, file string, ar *txtar.Archive) {
		golden.Check(t, file, ar, render(t, ar), *update, "-update")
	})
}

// render builds the case's outcome the way pipeline.Run does and renders
// it: the sections "stdout", "stderr" and "json".
func render(t *testing.T, ar *txtar.Archive) map[string]string {
	t.Helper()
	fsys := core.MapFS{}
	run := map[string]string{}
	text := ""
	for _, f := range ar.Files {
		switch {
		case strings.HasPrefix(f.Name, "patch.") && text == "":
			text = string(f.Data)
		case strings.HasPrefix(f.Name, "in/"):
			fsys[strings.TrimPrefix(f.Name, "in/")] = string(f.Data)
		case f.Name == "run":
			for _, l := range strings.Split(string(f.Data), "\n") {
				if k, v, _ := strings.Cut(l, ":"); strings.TrimSpace(k) != "" {
					run[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
		}
	}
	patch := core.Parse(text, core.ParseOptions{Snippets: run["snippets"] == "true", Exists: func(name string) bool {
		_, err := fsys.ReadFile(name)
		return err == nil
	}})
	var stdout, stderr, js bytes.Buffer
	if run["mode"] == "blocks" {
		if err := report.Blocks(&stdout, patch, false); err != nil {
			t.Fatal(err)
		}
		if err := report.Blocks(&js, patch, true); err != nil {
			t.Fatal(err)
		}
		return map[string]string{"stdout": stdout.String(), "json": js.String()}
	}
	var o report.Outcome
	if run["recovery"] != "" {
		// pipeline.RecoveryOutcome: nothing validated, nothing written.
		o = report.Outcome{CommitFailed: true, Plan: &core.Plan{Patch: patch, Problems: core.Problems{{Kind: core.KindCommit,
			Message: run["recovery"], Hint: "run fsrb --recover to roll the interrupted commit back, then run this patch again"}}}}
	} else {
		opt := core.Options{Root: "/root", Fuzzy: run["fuzzy"] == "true", Applied: true}
		check := core.Validate
		if run["revert"] == "true" {
			check = core.Revert
		}
		plan := check(patch, fsys, opt)
		o = report.Outcome{Plan: plan, Revert: run["revert"] == "true", Color: run["color"] == "true"}
		switch run["mode"] {
		case "", "apply":
			o.Mode = report.ModeApply
		case "dry-run":
			o.Mode = report.ModeDryRun
		case "partial":
			o.Mode = report.ModePartial
		default:
			t.Fatalf("unknown mode %q", run["mode"])
		}
		if o.Mode != report.ModeDryRun && (plan.OK() || o.Mode == report.ModePartial) && len(plan.Files) > 0 {
			if msg := run["commit-error"]; msg != "" {
				// pipeline.CommitProblem of a failed write.
				plan.Problems = append(plan.Problems, core.Problem{Kind: core.KindCommit, Message: msg,
					Hint: "fix the cause (permissions, disk space) and run fsrb again"})
				o.CommitFailed = true
			} else {
				o.Written = true
			}
		}
	}
	report.Human(&stdout, &stderr, o)
	if err := report.JSON(&js, o); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"stdout": stdout.String(), "stderr": stderr.String(), "json": js.String()}
}
