package commit_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
)

func TestUndo(t *testing.T) {
	root, opt, changes := mixed(t)
	before := snapshot(t, root)
	res, err := commit.Commit(root, changes, opt)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := commit.Undo(root, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Contents, modes (run.sh 0755, gone.txt 0600) and pruned folders all
	// come back; created folders go.
	assertTree(t, root, before)
	assertNoTemps(t, root)
	if rep.Undone != res.Journal || rep.Journal == "" {
		t.Errorf("report = %+v", rep)
	}
	if want := []string{"src/app.py", "run.sh", "empty.txt"}; !reflect.DeepEqual(rep.Written, want) {
		t.Errorf("Written = %v, want %v", rep.Written, want)
	}
	if want := []string{"old/deep/gone.txt", "docs/readme.md"}; !reflect.DeepEqual(rep.Created, want) {
		t.Errorf("Created = %v, want %v", rep.Created, want)
	}
	if want := []string{"lib/new/mod.py"}; !reflect.DeepEqual(rep.Deleted, want) {
		t.Errorf("Deleted = %v, want %v", rep.Deleted, want)
	}
	if got, want := rep.String(), "Restored src/app.py\nRestored run.sh\nRestored empty.txt\nRecreated old/deep/gone.txt\nRecreated docs/readme.md\nDeleted lib/new/mod.py\n\n[UNDONE] Reverted the last fsrb commit ("+res.Journal+") on 6 files."; got != want {
		t.Errorf("String() = %q\nwant %q", got, want)
	}
	if _, err := commit.Undo(root, opt); !errors.Is(err, commit.ErrNothingToUndo) {
		t.Errorf("second Undo: %v, want ErrNothingToUndo", err)
	}
	if got := states(t, opt); !reflect.DeepEqual(got, []string{"commit:undone", "undo:committed"}) {
		t.Errorf("journals = %v", got)
	}
}

func TestUndoTwoCommits(t *testing.T) {
	root, opt := workspace(t)
	write(t, root, "a.txt", "1", 0o644)
	if _, err := commit.Commit(root, []core.FileChange{modify("a.txt", "1", "2")}, opt); err != nil {
		t.Fatal(err)
	}
	if _, err := commit.Commit(root, []core.FileChange{modify("a.txt", "2", "3"), create("b.txt", "b")}, opt); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2", "1"} {
		if _, err := commit.Undo(root, opt); err != nil {
			t.Fatal(err)
		}
		if got := read(t, root, "a.txt"); got != want {
			t.Errorf("a.txt = %q, want %q", got, want)
		}
		if exists(root, "b.txt") {
			t.Error("b.txt survived its undo")
		}
	}
}

func TestUndoNothing(t *testing.T) {
	root, opt := workspace(t)
	if _, err := commit.Undo(root, opt); !errors.Is(err, commit.ErrNothingToUndo) {
		t.Errorf("Undo: %v, want ErrNothingToUndo", err)
	}
}

// Undo never throws away an edit made after the commit.
func TestUndoRefusesLaterEdits(t *testing.T) {
	for _, tc := range []struct {
		path string
		edit func(root string)
	}{
		{"lib/new/mod.py", func(root string) { write(t, root, "lib/new/mod.py", "x = 2\n", 0o644) }},
		{"docs/readme.md", func(root string) { write(t, root, "docs/readme.md", "back\n", 0o644) }},
		{"run.sh", func(root string) { write(t, root, "run.sh", "", 0o755) }},
	} {
		t.Run(tc.path, func(t *testing.T) {
			root, opt, changes := mixed(t)
			if _, err := commit.Commit(root, changes, opt); err != nil {
				t.Fatal(err)
			}
			tc.edit(root)
			edited := snapshot(t, root)
			_, err := commit.Undo(root, opt)
			var ue *commit.UndoConflictError
			if !errors.As(err, &ue) || ue.Path != tc.path {
				t.Fatalf("err = %v, want an UndoConflictError for %s", err, tc.path)
			}
			if want := tc.path + " changed since fsrb wrote it; nothing was undone"; err.Error() != want {
				t.Errorf("message = %q", err)
			}
			assertTree(t, root, edited)
		})
	}
}

// An undo is atomic too: an error at any of its steps leaves the commit's
// state, and a later undo still works.
func TestUndoFailAtEveryStep(t *testing.T) {
	root, opt, changes := mixed(t)
	before := snapshot(t, root)
	if _, err := commit.Commit(root, changes, opt); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, root)
	steps := recordSteps(t, func() {
		if _, err := commit.Undo(root, opt); err != nil {
			t.Fatal(err)
		}
	})
	if len(steps) < 20 {
		t.Fatalf("only %d undo steps: %v", len(steps), steps)
	}
	for i, step := range steps {
		t.Run(step, func(t *testing.T) {
			sampleUnderShort(t, i, step)
			root, opt, changes := mixed(t)
			if _, err := commit.Commit(root, changes, opt); err != nil {
				t.Fatal(err)
			}
			failAt(t, step, errInjected)
			_, err := commit.Undo(root, opt)
			var ce *commit.CommitError
			if !errors.As(err, &ce) || !ce.RolledBack {
				t.Fatalf("err = %v, want a rolled-back CommitError", err)
			}
			assertTree(t, root, after)
			assertNoTemps(t, root)
			commit.SetFailpoint(t, nil)
			if _, err := commit.Undo(root, opt); err != nil {
				t.Fatal(err)
			}
			assertTree(t, root, before)
		})
	}
}

// An undo that crashes is recovered to the commit's state, and can run
// again.
func TestUndoCrashThenRecover(t *testing.T) {
	root, opt, changes := mixed(t)
	before := snapshot(t, root)
	if _, err := commit.Commit(root, changes, opt); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, root)
	failAt(t, "rmdir:lib", commit.ErrCrash)
	if _, err := commit.Undo(root, opt); !errors.Is(err, commit.ErrCrash) {
		t.Fatal(err)
	}
	commit.SetFailpoint(t, nil)
	if _, err := commit.Recover(root, opt); err != nil {
		t.Fatal(err)
	}
	assertTree(t, root, after)
	if _, err := commit.Undo(root, opt); err != nil {
		t.Fatal(err)
	}
	assertTree(t, root, before)
}
