package lsp

import (
	"context"
	"fmt"

	"go.lsp.dev/protocol"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/lsp/internal/rpc"
)

// An "Apply" code action carries its edit, which the client applies itself:
// the server hears of it only through the action's command, which LSP
// clients run after the edit applied (VS Code, Neovim). onApplied keeps the
// plan and the snapshot the edit was built from, under a fresh id, for
// CommandApplied to record. What the edit leaves is worked out only then:
// clients ask for code actions on every cursor move, and most are never
// run.

// keptActions bounds the code actions' results kept for CommandApplied:
// a client runs one of the last menus it showed.
const keptActions = 8

func (s *Server) onApplied(snap *snapshot, plan *core.Plan, applyAll bool) protocol.Command {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.actionSeq++
	id := fmt.Sprintf("fsrb-edit-%d", s.actionSeq)
	s.actionEdits[id] = &actionEdit{snap: snap, plan: plan, applyAll: applyAll}
	s.actionOrder = append(s.actionOrder, id)
	if len(s.actionOrder) > keptActions {
		delete(s.actionEdits, s.actionOrder[0])
		s.actionOrder = s.actionOrder[1:]
	}
	return protocol.Command{Title: "fsrb: record the applied edit", Command: CommandApplied, Arguments: args(id)}
}

// actionEdit is a code action's edit, kept until the client says it
// applied it.
type actionEdit struct {
	snap     *snapshot  // the view the edit was built from
	plan     *core.Plan // what it applies
	applyAll bool       // "Apply all blocks": the files to show (showChanged)
}

// applied records the edit of the code action id as applied, and after
// "Apply all blocks" opens the files it changed when the user asked for it.
func (s *Server) applied(ctx context.Context, id string) {
	s.mu.Lock()
	act, ok := s.actionEdits[id]
	delete(s.actionEdits, id)
	s.mu.Unlock()
	if !ok {
		return
	}
	s.recordOwnEdits(act.snap.ownEdits(act.plan))
	if act.applyAll {
		snap := s.snapshot()
		rpc.Release(ctx) // showDocument waits on the client
		s.showChanged(ctx, snap, act.plan)
	}
}
