package commit_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fsrb/fsrb/core/commit"
)

// Stop closed after any step before the commit point rolls the commit
// back: every file old, no temporary file, no journal, and an error that
// says so. Closed at the commit point, it is too late: the commit
// finishes, all new. A Stop closed before the commit writes nothing.
func TestStopAtEveryStep(t *testing.T) {
	steps, before, after := mixedSteps(t)
	for i, step := range steps {
		t.Run(step, func(t *testing.T) {
			sampleUnderShort(t, i, step)
			root, opt, changes := mixed(t)
			stop := make(chan struct{})
			opt.Stop = stop
			commit.SetFailpoint(t, func(s string) error {
				if s == step {
					close(stop)
				}
				return nil
			})
			_, err := commit.Commit(root, changes, opt)
			if step == "journal:committed" {
				if err != nil {
					t.Fatalf("stopped at the commit point: %v, want the commit finished", err)
				}
				assertTree(t, root, after)
				return
			}
			var ce *commit.CommitError
			if !errors.As(err, &ce) || !ce.RolledBack || !errors.Is(err, commit.ErrInterrupted) {
				t.Fatalf("err = %#v, want a rolled-back CommitError wrapping ErrInterrupted", err)
			}
			if !strings.Contains(err.Error(), "interrupted") || !strings.Contains(err.Error(), "every file was rolled back") {
				t.Errorf("message = %q", err)
			}
			assertUntouched(t, root, opt, before)
		})
	}

	root, opt, changes := mixed(t)
	stop := make(chan struct{})
	close(stop)
	opt.Stop = stop
	if _, err := commit.Commit(root, changes, opt); !errors.Is(err, commit.ErrInterrupted) {
		t.Fatalf("Commit with Stop closed already: %v", err)
	}
	assertUntouched(t, root, opt, before)
}
