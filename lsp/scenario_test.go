package lsp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"golang.org/x/tools/txtar"

	"github.com/fsrb/fsrb/core"
	"github.com/fsrb/fsrb/core/commit"
	"github.com/fsrb/fsrb/lsp"
	"github.com/fsrb/fsrb/pipeline"
)

// TestScenarios runs testdata/lsp/*.txtar. The first file of an archive is
// the patch document the editor opens; other plain files make up the
// workspace. Sections whose names start with "@" hold expectations:
//
//	@caps          client capabilities (JSON; default: VS Code's)
//	@settings      initializationOptions (JSON)
//	@diagnostics   one line per diagnostic, in the style of gopls' marker
//	               tests — located by substring, never by line:column:
//	                 <severity> <code> "<substring of the patch>" [related <file> "<substring of file>"]... [message "<substring>"]
//	               the diagnostic's range holds the substring's start, a related
//	               range the last line of its substring; every diagnostic must
//	               be claimed by a line and every line used
//	@related       the messages of the related information of every
//	               diagnostic, in order, one a line
//	@applyall      "offered", "none" or "disabled"; when offered, the edit is
//	               applied as an editor would and must give exactly the bytes of
//	               core's plan (what the CLI writes)
//	@out/<file>    the content of <file> after "Apply all blocks"
//	@gone/<file>   <file> is deleted by "Apply all blocks"
//	@removed       the folders "Apply all blocks" removes, one per line, in order
//	@fixes         the titles of the quick fixes offered on the whole
//	               document, one a line, in order
//	@fixed         the patch after its one quick fix; it then validates, and
//	               "Apply all blocks" gives exactly the bytes of core's plan
//	@fixed/N       the same after the N-th quick fix (1-based), for patches
//	               that get several; each starts from the original patch
//	@lenses        substrings of the code lens titles, in order
//	@steps         a patch's life, step by step, after the checks above
//	               (steps_test.go)
func TestScenarios(t *testing.T) {
	paths, err := filepath.Glob("../testdata/lsp/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runScenario(t, path)
		})
	}
}

type scenario struct {
	root      string
	patchName string
	patchText string
	files     map[string]string // the workspace as written, patch included
	sections  map[string]string
}

func loadScenario(t *testing.T, path string) *scenario {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sc := &scenario{root: root, files: map[string]string{}, sections: map[string]string{}}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "@") {
			sc.sections[f.Name] = string(f.Data)
			continue
		}
		if sc.patchName == "" {
			sc.patchName, sc.patchText = f.Name, string(f.Data)
		}
		sc.files[f.Name] = string(f.Data)
		full := filepath.Join(root, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return sc
}

func runScenario(t *testing.T, path string) {
	sc := loadScenario(t, path)
	c := startClient(t, sc.root)
	caps := vscodeCaps
	if s, ok := sc.sections["@caps"]; ok {
		caps = s
	}
	var options any
	if s, ok := sc.sections["@settings"]; ok {
		options = json.RawMessage(s)
	}
	c.initialize(caps, options)
	u := c.open(sc.patchName, &sc.patchText)
	diags := c.waitDiagnostics(u, 1)

	fuzzy := options != nil && strings.Contains(string(options.(json.RawMessage)), `"fuzzy": true`)
	checkDiagnostics(t, sc, c, diags)
	if want, ok := sc.sections["@applyall"]; ok {
		checkApplyAll(t, sc, c, u, strings.TrimSpace(want), fuzzy)
	}
	if want, ok := sc.sections["@lenses"]; ok {
		checkLenses(t, c, u, want)
	}
	smoke(t, c, u, sc.patchText)
	checkQuickFixes(t, sc, c, u, fuzzy)
	if steps, ok := sc.sections["@steps"]; ok {
		runSteps(t, sc, c, u, steps)
	}
}

var severities = map[string]protocol.DiagnosticSeverity{
	"error": protocol.DiagnosticSeverityError, "warning": protocol.DiagnosticSeverityWarning,
	"info": protocol.DiagnosticSeverityInformation, "hint": protocol.DiagnosticSeverityHint,
}

func checkDiagnostics(t *testing.T, sc *scenario, c *testClient, diags []protocol.Diagnostic) {
	t.Helper()
	claimed := make([]bool, len(diags))
	for _, line := range strings.Split(sc.sections["@diagnostics"], "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		words := splitQuoted(t, line)
		if len(words) < 3 {
			t.Fatalf("bad @diagnostics line %q", line)
		}
		sev, code, sub := severities[words[0]], words[1], words[2]
		at := strings.Index(sc.patchText, sub)
		if at < 0 {
			t.Fatalf("@diagnostics: %q is not in the patch", sub)
		}
		var related [][2]string
		var msg string
		for rest := words[3:]; len(rest) > 0; {
			switch {
			case len(rest) >= 3 && rest[0] == "related":
				related = append(related, [2]string{rest[1], rest[2]})
				rest = rest[3:]
			case len(rest) >= 2 && rest[0] == "message":
				msg = rest[1]
				rest = rest[2:]
			default:
				t.Fatalf("bad clause in %q", line)
			}
		}
		found := false
		for i, d := range diags {
			if claimed[i] || d.Severity != sev || codeOf(d) != code || !covers(sc.patchText, d.Range, at) || !strings.Contains(messageOf(d), msg) {
				continue
			}
			if sourceOf(d) != "fsrb" {
				t.Errorf("diagnostic %q has source %q", code, sourceOf(d))
			}
			checkRelated(t, sc, c, d, related)
			claimed[i], found = true, true
			break
		}
		if !found {
			t.Errorf("no %s %s diagnostic at %q; got:\n%s", words[0], code, sub, describe(sc.patchText, diags))
		}
	}
	for i, d := range diags {
		if !claimed[i] {
			t.Errorf("unexpected diagnostic %s %v at %q: %s", severityName(d.Severity), d.Code, excerpt(sc.patchText, d.Range), d.Message)
		}
	}
	if want, ok := sc.sections["@related"]; ok {
		var msgs []string
		for _, d := range diags {
			for _, ri := range d.RelatedInformation {
				msgs = append(msgs, ri.Message)
			}
		}
		if got, want := strings.Join(msgs, "\n"), strings.TrimSpace(want); got != want {
			t.Errorf("related information:\n got: %s\nwant: %s", got, want)
		}
	}
}

func checkRelated(t *testing.T, sc *scenario, c *testClient, d protocol.Diagnostic, want [][2]string) {
	t.Helper()
	if len(d.RelatedInformation) != len(want) {
		t.Errorf("%v: %d related locations, want %d: %+v", d.Code, len(d.RelatedInformation), len(want), d.RelatedInformation)
		return
	}
	for i, w := range want {
		ri := d.RelatedInformation[i]
		text, ok := sc.files[w[0]]
		if !ok {
			t.Fatalf("related: no file %s", w[0])
		}
		at := strings.Index(text, w[1])
		if at < 0 {
			t.Fatalf("related: %q is not in %s", w[1], w[0])
		}
		line := uint32(positionOf(text, at+len(w[1])).Line) // the substring's last line
		if ri.Location.URI != c.uri(w[0]) || line < ri.Location.Range.Start.Line || line >= max(ri.Location.Range.End.Line, ri.Location.Range.Start.Line+1) {
			t.Errorf("%v: related location %d is %s %+v, want %s around %q", d.Code, i, ri.Location.URI, ri.Location.Range, w[0], w[1])
		}
	}
}

func covers(text string, r protocol.Range, at int) bool {
	start, end := offsetOf(text, r.Start), offsetOf(text, r.End)
	return start <= at && (at < end || at == start)
}

func checkApplyAll(t *testing.T, sc *scenario, c *testClient, u uri.URI, want string, fuzzy bool) {
	t.Helper()
	actions := c.codeActions(u, protocol.Range{}, protocol.CodeActionKindSource)
	var all []protocol.CodeAction
	for _, a := range actions {
		if kindOf(a) == lsp.KindApplyAll {
			all = append(all, a)
		}
	}
	switch want {
	case "none":
		if len(all) != 0 {
			t.Errorf("Apply all blocks offered: %+v", all)
		}
		return
	case "disabled":
		if len(all) != 1 || all[0].Disabled.Reason == "" || all[0].Edit != nil {
			t.Errorf("want one disabled Apply all blocks with no edit, got %+v", all)
		}
		return
	case "offered":
	default:
		t.Fatalf("bad @applyall %q", want)
	}
	ed := applyAllAsCLI(t, sc, c, u, sc.patchText, fuzzy)
	for name, body := range sc.sections {
		if k, ok := strings.CutPrefix(name, "@out/"); ok {
			if got, exists := ed.files[k]; !exists || got != body {
				t.Errorf("%s after Apply all blocks:\n got: %q\nwant: %q", k, got, body)
			}
		}
		if k, ok := strings.CutPrefix(name, "@gone/"); ok {
			if _, exists := ed.files[k]; exists {
				t.Errorf("%s: not deleted", k)
			}
		}
	}
	if want, ok := sc.sections["@removed"]; ok {
		if got := strings.Join(ed.removed, "\n"); got != strings.TrimSpace(want) {
			t.Errorf("folders removed by Apply all blocks:\n got: %q\nwant: %q", got, strings.TrimSpace(want))
		}
	}
}

// applyAllAsCLI takes the one "Apply all blocks" action offered on the
// patch (whose editor text is patchText), applies it as an editor would,
// and checks that it gives exactly the bytes of core's plan: what the CLI
// writes.
func applyAllAsCLI(t *testing.T, sc *scenario, c *testClient, u uri.URI, patchText string, fuzzy bool) *editor {
	t.Helper()
	var all []protocol.CodeAction
	for _, a := range c.codeActions(u, protocol.Range{}, protocol.CodeActionKindSource) {
		if kindOf(a) == lsp.KindApplyAll {
			all = append(all, a)
		}
	}
	if len(all) != 1 || all[0].Edit == nil {
		t.Fatalf("want one Apply all blocks with an edit, got %+v", all)
	}
	// The same action is offered as a plain refactoring.
	rewrite := 0
	for _, a := range c.codeActions(u, protocol.Range{}, protocol.CodeActionKindRefactor) {
		if strings.HasPrefix(a.Title, "Apply all blocks") {
			rewrite++
		}
	}
	if rewrite != 1 {
		t.Errorf("Apply all blocks offered %d times as refactor.rewrite", rewrite)
	}

	ed := &editor{root: sc.root, files: map[string]string{}}
	for k, v := range sc.files {
		ed.files[k] = v
	}
	if err := ed.apply(all[0].Edit); err != nil {
		t.Fatalf("applying the edit: %v", err)
	}

	// What the CLI writes: core's plan over the disk.
	disk, err := commit.NewDisk(sc.root)
	if err != nil {
		t.Fatal(err)
	}
	slashRoot := filepath.ToSlash(disk.Root)
	patch := core.Parse(patchText, core.ParseOptions{Exists: func(name string) bool {
		clean, err := core.CleanPath(slashRoot, name)
		if err != nil {
			return false
		}
		_, err = disk.ReadFile(clean)
		return err == nil
	}, Snippets: true})
	plan := pipeline.Validate(patch, disk, pipeline.Check{Options: core.Options{Root: slashRoot, Fuzzy: fuzzy}, Checker: pipeline.Disk})
	if !plan.OK() {
		t.Fatalf("core refuses the patch: %v", plan.Problems)
	}
	expect := map[string]*string{}
	for k, v := range sc.files {
		expect[k] = &v
	}
	for _, fc := range plan.Files {
		if fc.Action == core.ActionDelete {
			expect[fc.Path] = nil
		} else {
			s := string(fc.Bytes())
			expect[fc.Path] = &s
		}
	}
	for k, v := range expect {
		got, ok := ed.files[k]
		switch {
		case v == nil && ok:
			t.Errorf("%s: not deleted", k)
		case v != nil && !ok:
			t.Errorf("%s: deleted", k)
		case v != nil && got != *v:
			t.Errorf("%s: the editor's result differs from core's plan\n got: %q\nwant: %q", k, got, *v)
		}
	}
	for k := range ed.files {
		if _, ok := expect[k]; !ok {
			t.Errorf("%s: created but not in the plan", k)
		}
	}
	// The CLI removes each folder above a deleted file that holds no file
	// any more (the workspace holds only the scenario's files).
	var folders []string
	for _, fc := range plan.Files {
		if fc.Action != core.ActionDelete {
			continue
		}
	up:
		for dir := path.Dir(fc.Path); dir != "."; dir = path.Dir(dir) {
			for k := range ed.files {
				if strings.HasPrefix(k, dir+"/") {
					break up
				}
			}
			if !slices.Contains(folders, dir) {
				folders = append(folders, dir)
			}
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(folders)))
	if got := append([]string(nil), ed.removed...); !slices.Equal(got, folders) {
		t.Errorf("folders removed by the edit %v, by the CLI %v", got, folders)
	}
	return ed
}

// checkQuickFixes checks @fixes and every @fixed section: each fix, applied
// to the original patch, gives the expected text, which then validates and
// applies as the CLI would.
func checkQuickFixes(t *testing.T, sc *scenario, c *testClient, u uri.URI, fuzzy bool) {
	t.Helper()
	var names []string
	for name := range sc.sections {
		if name == "@fixed" || strings.HasPrefix(name, "@fixed/") {
			names = append(names, name)
		}
	}
	want, listed := sc.sections["@fixes"]
	if len(names) == 0 && !listed {
		return
	}
	sort.Strings(names)
	end := positionOf(sc.patchText, len(sc.patchText))
	var fixes []protocol.CodeAction
	var titles []string
	for _, a := range c.codeActions(u, protocol.Range{End: end}, protocol.CodeActionKindQuickFix) {
		if kindOf(a) == protocol.CodeActionKindQuickFix {
			fixes = append(fixes, a)
			titles = append(titles, a.Title)
		}
	}
	if listed {
		if got, want := strings.Join(titles, "\n"), strings.TrimSpace(want); got != want {
			t.Errorf("quick fixes:\n got: %s\nwant: %s", got, want)
		}
	}
	for _, name := range names {
		n := 1
		if name == "@fixed" {
			if len(fixes) != 1 {
				t.Fatalf("want one quick fix, got %q", titles)
			}
		} else if k, err := strconv.Atoi(strings.TrimPrefix(name, "@fixed/")); err != nil || k < 1 || k > len(fixes) {
			t.Fatalf("%s: no such quick fix among %q", name, titles)
		} else {
			n = k
		}
		fix := fixes[n-1]
		if fix.Edit == nil {
			t.Fatalf("quick fix %q has no edit", fix.Title)
		}
		ed := &editor{root: sc.root, files: map[string]string{sc.patchName: sc.patchText}}
		if err := ed.apply(fix.Edit); err != nil {
			t.Fatal(err)
		}
		got := ed.files[sc.patchName]
		if got != sc.sections[name] {
			t.Fatalf("patch after the quick fix %q:\n got: %q\nwant: %q", fix.Title, got, sc.sections[name])
		}
		for _, d := range c.waitDiagnostics(u, c.replace(u, got)) {
			if d.Severity == protocol.DiagnosticSeverityError {
				t.Errorf("after the quick fix %q: %v %s", fix.Title, d.Code, d.Message)
			}
		}
		applyAllAsCLI(t, sc, c, u, got, fuzzy)
		c.waitDiagnostics(u, c.replace(u, sc.patchText)) // back to the original
	}
}

func checkLenses(t *testing.T, c *testClient, u uri.URI, want string) {
	t.Helper()
	titles := lensTitles(t, c, u)
	i := 0
	for _, w := range strings.Split(strings.TrimSpace(want), "\n") {
		for i < len(titles) && !strings.Contains(titles[i], w) {
			i++
		}
		if i == len(titles) {
			t.Errorf("no lens %q in order in %q", w, titles)
			return
		}
		i++
	}
}

// smoke runs the read-only features on every block: they must answer
// without an error.
func smoke(t *testing.T, c *testClient, u uri.URI, text string) {
	t.Helper()
	td := protocol.TextDocumentIdentifier{URI: u}
	var syms []json.RawMessage
	var folds []protocol.FoldingRange
	var links []protocol.DocumentLink
	for _, call := range []struct {
		method string
		params any
		result any
	}{
		{protocol.MethodTextDocumentDocumentSymbol, &protocol.DocumentSymbolParams{TextDocument: td}, &syms},
		{protocol.MethodTextDocumentFoldingRange, &protocol.FoldingRangeParams{TextDocument: td}, &folds},
		{protocol.MethodTextDocumentDocumentLink, &protocol.DocumentLinkParams{TextDocument: td}, &links},
	} {
		if err := c.call(call.method, call.params, call.result); err != nil {
			t.Errorf("%s: %v", call.method, err)
		}
	}
	for i := strings.Index(text, "SEARCH"); i >= 0; {
		pos := positionOf(text, i)
		var hover json.RawMessage
		if err := c.call(protocol.MethodTextDocumentHover, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: pos}}, &hover); err != nil {
			t.Errorf("hover: %v", err)
		}
		var locs []protocol.Location
		if err := c.call(protocol.MethodTextDocumentDefinition, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: td, Position: pos}}, &locs); err != nil {
			t.Errorf("definition: %v", err)
		}
		j := strings.Index(text[i+1:], "SEARCH")
		if j < 0 {
			break
		}
		i += j + 1
	}
}

// splitQuoted splits a line into words, Go-quoted strings counting as one.
func splitQuoted(t *testing.T, line string) []string {
	var out []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		if line[0] == '"' {
			q, err := strconv.QuotedPrefix(line)
			if err != nil {
				t.Fatalf("bad quoted string in %q: %v", line, err)
			}
			s, _ := strconv.Unquote(q)
			out = append(out, s)
			line = line[len(q):]
			continue
		}
		i := strings.IndexAny(line, " \t")
		if i < 0 {
			i = len(line)
		}
		out = append(out, line[:i])
		line = line[i:]
	}
	return out
}

func severityName(s protocol.DiagnosticSeverity) string {
	for k, v := range severities {
		if v == s {
			return k
		}
	}
	return "?"
}

func excerpt(text string, r protocol.Range) string {
	s, e := offsetOf(text, r.Start), offsetOf(text, r.End)
	if e-s > 40 {
		e = s + 40
	}
	return text[s:e]
}

func describe(text string, diags []protocol.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "  %s %v at %q: %s\n", severityName(d.Severity), d.Code, excerpt(text, d.Range), d.Message)
	}
	return b.String()
}
