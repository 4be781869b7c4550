//go:build fsrb_pause

package commit

import (
	"os"
	"strings"
	"time"
)

// Built only into the fsrb and fsrb-mcp that the signal tests run (go
// build -tags fsrb_pause, testenv.BuildPaused): with FSRB_PAUSE_AT set, the first step whose name
// starts with it writes FSRB_PAUSE_FILE, then waits until its transaction
// is stopped, so that the signal the test sends on seeing the file lands
// at that step. A minute without one, it goes on.
func init() {
	at := os.Getenv("FSRB_PAUSE_AT")
	if at == "" {
		return
	}
	var stop <-chan struct{}
	watchStop = func(s <-chan struct{}) { stop = s }
	paused := false
	failpoint = func(step string) error {
		if paused || !strings.HasPrefix(step, at) {
			return nil
		}
		paused = true
		if err := os.WriteFile(os.Getenv("FSRB_PAUSE_FILE"), []byte(step), 0o644); err != nil {
			return err
		}
		select {
		case <-stop:
		case <-time.After(time.Minute):
		}
		return nil
	}
}
