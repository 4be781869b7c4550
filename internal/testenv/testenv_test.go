package testenv

import (
	"testing"
	"time"
)

// deadline is a test with the deadline end, or none when end is zero.
type deadline struct {
	testing.TB
	end time.Time
}

func (d deadline) Deadline() (time.Time, bool) { return d.end, !d.end.IsZero() }

func TestTimeout(t *testing.T) {
	t.Setenv(ScaleVar, "")
	if got := Timeout(deadline{TB: t}, time.Second); got != DefaultScale*time.Second {
		t.Errorf("no deadline, no scale: %v, want %v", got, DefaultScale*time.Second)
	}
	t.Setenv(ScaleVar, "2.5")
	if got := Timeout(deadline{TB: t}, 10*time.Second); got != 25*time.Second {
		t.Errorf("scale 2.5: %v, want 25s", got)
	}
	t.Setenv(ScaleVar, "nonsense")
	if got := Timeout(deadline{TB: t}, time.Second); got != DefaultScale*time.Second {
		t.Errorf("a bad scale: %v, want the default's %v", got, DefaultScale*time.Second)
	}
	// A minute left: nine tenths of it, not the scaled ten minutes.
	got := Timeout(deadline{t, time.Now().Add(time.Minute)}, 2*time.Minute)
	if got > 54*time.Second || got < 50*time.Second {
		t.Errorf("a minute before the deadline: %v, want just under 54s", got)
	}
}
