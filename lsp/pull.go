package lsp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/fsrb/fsrb/lsp/internal/rpc"
)

// Pull diagnostics (LSP 3.17) and inlay hints are asked for by the client;
// push diagnostics are sent by the diagnoser. Both come from the same
// analysis of the same snapshot (snap.diagnostics), so a client sees the
// same diagnostics whichever way it gets them. A client that pulls is
// never pushed to.
//
// A client asks again when the patch changes, not when its target files
// do: the diagnoser, which re-validates the patches that name a changed
// file, tells when what the client was last answered no longer holds for
// the same version of the patch, and asks it to pull again
// (workspace/diagnostic/refresh, workspace/inlayHint/refresh).

// answer is one result for one document: the snapshot it was computed on,
// the document's version there, and an id of its content.
type answer struct {
	seq     uint64
	version int32
	id      string
}

// staleness compares what the client was last answered with what the
// diagnoser last computed, document by document. Its owner's lock guards
// it.
type staleness struct {
	answered map[uri.URI]answer
	computed map[uri.URI]answer
}

func newStaleness() staleness {
	return staleness{answered: map[uri.URI]answer{}, computed: map[uri.URI]answer{}}
}

// answer records what the client was answered and reports whether a newer
// computation for the same version of the document already differs.
func (s staleness) answer(u uri.URI, a answer) bool {
	if cur, ok := s.answered[u]; !ok || cur.seq <= a.seq {
		s.answered[u] = a
	}
	c, ok := s.computed[u]
	return ok && c.seq > a.seq && c.version == a.version && c.id != a.id
}

// compute records what the diagnoser computed and reports whether the
// client's last answer, for the same version, differs: its targets
// changed, it does not know, and must ask again.
func (s staleness) compute(u uri.URI, c answer) bool {
	if cur, ok := s.computed[u]; !ok || cur.seq <= c.seq {
		s.computed[u] = c
	}
	a, ok := s.answered[u]
	return ok && a.seq < c.seq && a.version == c.version && a.id != c.id
}

func (s staleness) forget(u uri.URI) {
	delete(s.answered, u)
	delete(s.computed, u)
}

// resultID names a set of diagnostics by its content: a client sends it
// back, and is answered "unchanged" when it still holds.
func resultID(diags []protocol.Diagnostic) string {
	data, err := protocol.Marshal(diags)
	if err != nil {
		data, _ = json.Marshal(len(diags))
	}
	sum := sha256.Sum256(data)
	return base64.RawURLEncoding.EncodeToString(sum[:12])
}

// Diagnostic answers textDocument/diagnostic: the diagnostics the diagnoser
// would publish, on the current snapshot. A document that is no patch (a
// target file Neovim attached the client to) gets none.
func (s *Server) Diagnostic(ctx context.Context, params *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	snap := s.checkDisk()
	// A validation may take a while (a 10,000-block patch): the messages
	// behind this one need not wait for it.
	rpc.Release(ctx)
	u := params.TextDocument.URI
	items := []protocol.Diagnostic{}
	if a := snap.analyze(u); a != nil {
		items = snap.diagnostics(a)
		s.recordDeps(u, a)
	}
	id := resultID(items)
	if doc, open := snap.docs[u]; open {
		s.diag.answered(ctx, &s.diag.pulls, u, answer{seq: snap.seq, version: doc.version, id: id}, methodDiagnosticRefresh)
	}
	if prev := params.PreviousResultID; prev != nil && *prev == id {
		return &protocol.RelatedUnchangedDocumentDiagnosticReport{UnchangedDocumentDiagnosticReport: protocol.UnchangedDocumentDiagnosticReport{
			Kind: string(protocol.DocumentDiagnosticReportKindUnchanged), ResultID: id,
		}}, nil
	}
	return &protocol.RelatedFullDocumentDiagnosticReport{FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
		Kind: string(protocol.DocumentDiagnosticReportKindFull), ResultID: &id, Items: items,
	}}, nil
}

const (
	methodDiagnosticRefresh = "workspace/diagnostic/refresh"
	methodInlayHintRefresh  = "workspace/inlayHint/refresh"
	methodCodeLensRefresh   = "workspace/codeLens/refresh"
)

// answered records an answer to the client and, when the diagnoser has
// already computed something newer for the same version of the document,
// asks the client to ask again.
func (d *diagnoser) answered(ctx context.Context, st *staleness, u uri.URI, a answer, refresh string) {
	d.mu.Lock()
	stale := st.answer(u, a)
	d.mu.Unlock()
	if stale {
		d.refresh(ctx, refresh)
	}
}

// refresh sends a refresh request (codeLens, inlayHint, diagnostic) on its
// own goroutine, so that a slow client never holds diagnostics up.
func (d *diagnoser) refresh(ctx context.Context, method string) {
	d.asked[method].Add(1)
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, err := d.srv.conn.Peer().Call(ctx, method, nil, nil); err != nil {
			d.srv.log.Debug(method, zap.Error(err))
		}
	}()
}

// hintWords is what a document's inlay hints say, for staleness.
func hintWords(hints []blockHint) string {
	var b strings.Builder
	for _, h := range hints {
		b.WriteString(h.label)
		b.WriteByte('\n')
	}
	return b.String()
}
