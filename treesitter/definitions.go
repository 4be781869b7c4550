package treesitter

import (
	"bytes"
	"sort"
	"strings"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
)

// Definition is a function, method, class, struct, impl, interface, module
// ... of a source file, as its language's definitions query finds it.
type Definition struct {
	Kind string // "function", "method", "class", "struct", "impl", ...
	// Name is qualified for display: a Go method by its receiver
	// ("Server.Start"), a member by its container ("Greeter.hello",
	// "Server::start" in Rust, "Greeter#hello" in Ruby).
	Name string
	// Signature is the line that names the definition, trimmed:
	// "func (s *Server) Start(ctx context.Context) error {".
	Signature string
	// Label is a short description for messages, the signature cut after
	// the name: "func (s *Server) Start", "def Greeter.hello". See Describe.
	Label string

	StartLine, EndLine int // 1-based, inclusive
	SignatureLine      int // 1-based line of Signature
	StartByte, EndByte int // [StartByte, EndByte) in the content
}

// Describe returns a short label for the innermost definition of a chain,
// for messages such as "line 12, in func (s *Server) Start". It returns ""
// for an empty chain.
func Describe(defs []Definition) string {
	if len(defs) == 0 {
		return ""
	}
	d := defs[len(defs)-1]
	if d.Label != "" {
		return d.Label
	}
	return strings.TrimSpace(d.Kind + " " + d.Name)
}

// EnclosingDefinitions returns the chain of definitions around the bytes
// [startByte, endByte) of content, the file at path: outermost first,
// innermost last. Blank space at either end of the range is ignored, so a
// range of whole lines sits inside the function whose lines it covers. A
// file of no known language has no definitions (nil, nil).
func (c *Cache) EnclosingDefinitions(path string, content []byte, startByte, endByte int) ([]Definition, error) {
	if LanguageFor(path, content) == nil {
		return nil, nil
	}
	t, err := c.Parse(path, 0, content, nil)
	if err != nil {
		return nil, err
	}
	return t.EnclosingDefinitions(startByte, endByte)
}

// EnclosingDefinitions returns the chain of definitions around a byte range
// of the tree's content; see Cache.EnclosingDefinitions.
func (t *Tree) EnclosingDefinitions(startByte, endByte int) ([]Definition, error) {
	s, e := trimRange(t.content, startByte, endByte)
	if pats := t.Lang.plainPatterns(); pats != nil && s < e {
		return t.enclosingByAncestors(pats, s, e), nil // no query compiled (enclosing.go)
	}
	defs, err := t.Definitions()
	if err != nil {
		return nil, err
	}
	// Definitions are sorted by start, outer before inner, so the ones that
	// contain the range, in order, form the chain.
	n := sort.Search(len(defs), func(i int) bool { return defs[i].StartByte > s })
	var chain []Definition
	for _, d := range defs[:n] {
		if d.StartByte <= s && e <= d.EndByte {
			chain = append(chain, d)
		}
	}
	return chain, nil
}

// trimRange clamps [s, e) to content and drops blank space at both ends
// (keeping at least an empty range at the first non-blank byte).
func trimRange(content []byte, s, e int) (int, int) {
	s = max(0, min(s, len(content)))
	e = max(s, min(e, len(content)))
	for s < e && isSpace(content[s]) {
		s++
	}
	for e > s && isSpace(content[e-1]) {
		e--
	}
	return s, e
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// Definitions returns every definition of the file, sorted by start, an
// outer definition before the ones it contains. It runs the language's
// query once per tree.
func (t *Tree) Definitions() ([]Definition, error) {
	t.defsOnce.Do(func() { t.defs, t.defsErr = t.findDefinitions() })
	return t.defs, t.defsErr
}

// found is one definition node as the query matched it.
type found struct {
	pattern            uint16
	start, end         int
	kind               string
	nameStart, nameEnd int // -1 when the pattern captures no name
	receiver           string
}

func (t *Tree) findDefinitions() ([]Definition, error) {
	_, q, err := t.Lang.compiled()
	if err != nil || q == nil {
		return nil, err
	}
	nodes := t.matchDefinitions(q)
	sort.Slice(nodes, func(i, j int) bool {
		if nodes[i].start != nodes[j].start {
			return nodes[i].start < nodes[j].start
		}
		return nodes[i].end > nodes[j].end
	})

	defs := make([]Definition, 0, len(nodes))
	var stack []int // indexes in defs of the definitions that contain the current one
	for _, f := range nodes {
		for len(stack) > 0 && defs[stack[len(stack)-1]].EndByte < f.end {
			stack = stack[:len(stack)-1]
		}
		var parent *Definition
		if len(stack) > 0 {
			parent = &defs[stack[len(stack)-1]]
		}
		defs = append(defs, t.definition(f, parent))
		stack = append(stack, len(defs)-1)
	}
	return defs, nil
}

// wins reports whether f, of the same range as g, is the definition kept
// for that range: the first pattern's, and of the earliest name.
func (f found) wins(g found) bool {
	return f.pattern < g.pattern || f.pattern == g.pattern && f.nameStart <= g.nameStart
}

// matchDefinitions runs the query and keeps one match per node: the one of
// the first pattern, and of the earliest name.
func (t *Tree) matchDefinitions(q *sitter.Query) []found {
	t.mu.Lock()
	defer t.mu.Unlock()
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(q, t.t.RootNode())

	byRange := map[[2]int]found{}
	for {
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		m = qc.FilterPredicates(m, t.content)
		f := found{pattern: m.PatternIndex, start: -1, nameStart: -1, nameEnd: -1}
		for _, c := range m.Captures {
			switch t.Lang.role[c.Index] {
			case roleDefinition:
				f.start, f.end, f.kind = int(c.Node.StartByte()), int(c.Node.EndByte()), t.Lang.kind[c.Index]
			case roleName:
				if f.nameStart < 0 {
					f.nameStart, f.nameEnd = int(c.Node.StartByte()), int(c.Node.EndByte())
				}
			case roleReceiver:
				f.receiver = c.Node.Content(t.content)
			}
		}
		if f.start < 0 {
			continue // a predicate failed
		}
		key := [2]int{f.start, f.end}
		if prev, ok := byRange[key]; ok && prev.wins(f) {
			continue
		}
		byRange[key] = f
	}
	nodes := make([]found, 0, len(byRange))
	for _, f := range byRange {
		nodes = append(nodes, f)
	}
	return nodes
}

// containerKind reports the kinds whose functions are methods and whose
// members are named after them.
func containerKind(kind string) bool {
	switch kind {
	case "class", "struct", "impl", "trait", "interface", "object",
		"protocol", "extension", "enum", "module", "namespace",
		"key", "table":
		return true
	}
	return false
}

// definition turns a match into a Definition, given its parent.
func (t *Tree) definition(f found, parent *Definition) Definition {
	d := Definition{Kind: f.kind, StartByte: f.start, EndByte: f.end}
	if d.Kind == "function" && parent != nil && containerKind(parent.Kind) && parent.Kind != "module" && parent.Kind != "namespace" {
		d.Kind = "method"
	}
	d.StartLine = t.line(f.start)
	d.EndLine = t.line(max(f.start, f.end-1))

	raw := ""
	if f.nameStart >= 0 {
		raw = strings.Join(strings.Fields(string(t.content[f.nameStart:f.nameEnd])), " ")
	}
	d.Name = raw
	byChain := false
	switch {
	case f.receiver != "":
		d.Name = f.receiver + "." + raw
	case parent != nil && parent.Name != "" && raw != "" && containerKind(parent.Kind) && t.Lang.Separator != "":
		sep := t.Lang.Separator
		if containerKind(d.Kind) && t.Lang.TypeSeparator != "" {
			sep = t.Lang.TypeSeparator
		}
		d.Name, byChain = parent.Name+sep+raw, true
	}

	sigAt := f.start
	if f.nameStart >= 0 {
		sigAt = f.nameStart
	}
	d.SignatureLine = t.line(sigAt)
	ls, le := lineBounds(t.content, t.lines, d.SignatureLine)
	line := t.content[ls:le]
	d.Signature = string(bytes.TrimSpace(line))
	lead := len(line) - len(bytes.TrimLeftFunc(line, unicode.IsSpace))
	d.Label = label(d, raw, byChain, t.Lang.plainLabels, f.nameStart-ls-lead, min(f.nameEnd, le)-ls-lead)
	return d
}

// label cuts the signature after the name: "func (s *Server) Start". A
// member named through its container shows the qualified name
// ("def Greeter.hello"); languages whose lines are not declarations (YAML,
// TOML, HTML, CSS), and signatures where the name does not follow a
// keyword, show the kind and the name ("table server").
func label(d Definition, raw string, byChain, plain bool, ns, ne int) string {
	kindName := strings.TrimSpace(d.Kind + " " + d.Name)
	if raw == "" {
		if plain {
			return kindName
		}
		return strings.TrimSpace(strings.TrimRight(d.Signature, "{:("))
	}
	sig := d.Signature
	if plain || ns < 0 || ne > len(sig) || ns >= ne {
		return kindName
	}
	prefix := sig[:ns]
	if !strings.ContainsFunc(prefix, unicode.IsLetter) {
		return kindName
	}
	name := sig[ns:ne]
	if byChain && (prefix == "" || prefix[len(prefix)-1] == ' ') {
		name = d.Name
	}
	if l := prefix + name; len(l) <= 100 {
		return l
	}
	return kindName
}
