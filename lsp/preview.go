package lsp

import (
	"context"
	"fmt"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/core"
)

// PreviewReport is the answer of the fsrb.preview command: every file
// "Apply all blocks" would change now — the whole patch, or the blocks
// still to apply when some are — with its text before and after, for an
// editor to show as diffs. Files is empty when Apply all would change
// nothing; Message then says why.
type PreviewReport struct {
	State   string        `json:"state"` // the patch's, as fsrb.status says it
	Files   []PreviewFile `json:"files"`
	Message string        `json:"message,omitempty"`
}

// PreviewFile is one file of a PreviewReport. Texts are as the editor shows
// them: without a byte order mark.
type PreviewFile struct {
	URI       uri.URI `json:"uri"`
	Path      string  `json:"path"`      // relative to the workspace folder, slash-separated
	Operation string  `json:"operation"` // "modify", "create" or "delete"
	Current   string  `json:"current"`   // "" for a file the patch creates
	Proposed  string  `json:"proposed"`  // "" for a file the patch deletes
}

// preview is what Apply all would do, computed exactly as it (the plan of
// the same analysis), without sending anything.
func (s *snapshot) preview(a *analysis) *PreviewReport {
	rep := &PreviewReport{State: string(a.state()), Files: []PreviewFile{}}
	switch {
	case a.state() == lifeEmpty:
		rep.Message = "nothing to apply: " + a.noEdit()
		return rep
	case a.state() == lifeApplied:
		rep.Message = "nothing to apply: every block of the patch is applied already"
		return rep
	case a.state() == lifeSkipped:
		rep.Message = "nothing to apply: every block of the patch is skipped"
		return rep
	case !a.applies():
		rep.Message = fmt.Sprintf("nothing to preview: the patch has %s; every block must validate", plural(len(a.plan.Problems.Errors()), "problem"))
		return rep
	}
	for _, fc := range a.plan.Files {
		f := PreviewFile{
			URI:       s.docURI(fc.Path),
			Path:      fc.Path,
			Operation: "modify",
			Current:   strings.TrimPrefix(string(fc.Old), bom),
			Proposed:  strings.TrimPrefix(string(fc.Bytes()), bom),
		}
		switch {
		case fc.Action == core.ActionDelete:
			f.Operation = "delete"
		case fc.Action == core.ActionCreate && !fc.Existed:
			f.Operation = "create"
		}
		rep.Files = append(rep.Files, f)
	}
	return rep
}

// showChanged opens the files an applied edit left in place, when the user
// asked for it (setting showChangedFiles) and the client can
// (window/showDocument). The first file takes the focus; it is shown last,
// so that an editor that opens every document in the same place (VS Code)
// ends on it too.
func (s *Server) showChanged(ctx context.Context, snap *snapshot, plan *core.Plan) {
	if !snap.settings.ShowChangedFiles || !s.capabilities().showDocument {
		return
	}
	var uris []uri.URI
	for _, fc := range plan.Files {
		if fc.Action != core.ActionDelete {
			uris = append(uris, snap.docURI(fc.Path))
		}
	}
	if len(uris) == 0 {
		return
	}
	ctx = context.WithoutCancel(ctx)
	for i := len(uris) - 1; i >= 0; i-- {
		res, err := s.client.ShowDocument(ctx, &protocol.ShowDocumentParams{URI: uris[i], TakeFocus: ptr(i == 0)})
		if err != nil || res == nil || !res.Success {
			s.log.Info("showDocument", zap.String("uri", string(uris[i])), zap.Error(err))
		}
	}
}
