package fsrb_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// setting is one setting of one front end, as its user writes it.
type setting struct {
	name string
	// def is the default as the front end's own file states it: a JSON
	// value in package.json, a Lua expression in the Neovim plugin. ""
	// for the settings whose default is not a literal there.
	def string
}

// settings is the list every setting of fsrb comes from: docs/settings.md
// (which names each of them), the Neovim help (:help fsrb-setup), VS
// Code's package.json and the code that reads them are checked against
// it below, so a setting added, renamed or dropped in one place and not
// the others fails here.
var settings = map[string][]setting{
	// cmd/fsrb/run.go and hashlines.go ("fsrb read"); -h and --version are
	// not settings.
	"fsrb": {
		{name: "--dry-run"}, {name: "--diff"}, {name: "--json"}, {name: "--fuzzy"}, {name: "--partial"},
		{name: "--blocks"}, {name: "--syntax-check"}, {name: "--snippets"}, {name: "--root"}, {name: "--format"},
		{name: "--recover"}, {name: "--undo"}, {name: "--revert"}, {name: "--hashlines"},
	},
	// cmd/fsrb-mcp/main.go, and the tool arguments that are the CLI's flags.
	"fsrb mcp": {{name: "--root"}, {name: "fuzzy"}, {name: "partial"}},
	// cmd/fsrb-lsp/main.go's flags (--stdio is accepted and ignored) and
	// the server's settings (lsp/lifecycle.go).
	"fsrb-lsp": {{name: "--log-file"}, {name: "fuzzy"}, {name: "showChangedFiles"}},
	// editors/vscode/package.json, contributes.configuration.
	"vscode": {
		{name: "fsrb.server.path", def: `""`},
		{name: "fsrb.fuzzy", def: "false"},
		{name: "fsrb.markdown", def: "false"},
		{name: "fsrb.showChangedFiles", def: "false"},
		{name: "fsrb.mergeConflict.hideInPatches", def: "true"},
		{name: "fsrb.trace.server", def: `"off"`},
	},
	// The defaults of the Neovim plugin's options (editors/nvim/lua/fsrb).
	"nvim": {
		{name: "cmd", def: "{ 'fsrb-lsp' }"},
		{name: "filetypes", def: "{ 'fsrb' }"},
		{name: "markdown", def: "false"},
		{name: "chat", def: "true"},
		{name: "chat_filetypes", def: "{}"},
		{name: "fuzzy", def: "false"},
		{name: "root_dir", def: "nil"},
		{name: "root_markers", def: "{ '.git', '.hg', '.jj', '.svn' }"},
		{name: "on_attach", def: "nil"},
		{name: "capabilities", def: "nil"},
		{name: "handlers", def: "nil"},
		{name: "codelens", def: "true"},
		{name: "inlay_hints", def: "nil"},
		{name: "virtual_text", def: "nil"},
		{name: "sync_targets", def: "true"},
		{name: "name", def: "'fsrb'"},
	},
	// Environment variables, with the file that reads each.
	"env": {
		{name: "XDG_STATE_HOME", def: "core/commit/journal.go"},
		{name: "NO_COLOR", def: "cmd/fsrb/run.go"},
		{name: "STATIC", def: "Makefile"},
		{name: "CLI_GC", def: "Makefile"},
		{name: "FSRB_TEST_TIMEOUT_SCALE", def: "internal/testenv/testenv.go"},
	},
}

func names(ss []setting) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func sortedSet(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func readText(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.FromSlash(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// flagNames returns the flags the files define through the flag or pflag
// packages: the string literal that names each (X.Bool("name", …),
// X.BoolVar(&v, "name", …), X.StringVarP(&v, "name", "n", …)).
func flagNames(t *testing.T, files ...string) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			// The flag sets' names in those files: the package flag, or
			// a pflag.FlagSet.
			if x, ok := sel.X.(*ast.Ident); !ok || !slices.Contains([]string{"flag", "fs", "set"}, x.Name) {
				return true
			}
			m := sel.Sel.Name
			kind := strings.TrimSuffix(strings.TrimSuffix(m, "P"), "Var")
			if !slices.Contains([]string{"Bool", "String", "Int", "Duration", "StringSlice"}, kind) {
				return true
			}
			arg := 0
			if strings.Contains(m, "Var") {
				arg = 1
			}
			if len(call.Args) <= arg {
				return true
			}
			if lit, ok := call.Args[arg].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				out["--"+s] = true
			}
			return true
		})
	}
	return out
}

// jsonTags returns the json names of the fields of the struct types named
// in file.
func jsonTags(t *testing.T, file string, types ...string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	found := 0
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || !slices.Contains(types, ts.Name.Name) {
			return true
		}
		found++
		for _, field := range ts.Type.(*ast.StructType).Fields.List {
			if field.Tag == nil {
				continue
			}
			tag, _ := strconv.Unquote(field.Tag.Value)
			name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
			out[name] = true
		}
		return true
	})
	if found != len(types) {
		t.Fatalf("%s: found %d of the types %v", file, found, types)
	}
	return out
}

func TestSettingsInTheCode(t *testing.T) {
	check := func(what string, got map[string]bool, want []string) {
		t.Helper()
		if g := sortedSet(got); !slices.Equal(g, want) {
			t.Errorf("%s: the code has %v, the list %v", what, g, want)
		}
	}
	cli := flagNames(t, "cmd/fsrb/run.go", "cmd/fsrb/hashlines.go")
	delete(cli, "--help")
	delete(cli, "--version")
	check("fsrb's flags", cli, names(settings["fsrb"]))

	mcp := flagNames(t, "cmd/fsrb-mcp/main.go")
	delete(mcp, "--help")
	delete(mcp, "--version")
	for name := range jsonTags(t, "mcp/tools.go", "validateIn", "applyIn") {
		if name != "patch" {
			mcp[name] = true
		}
	}
	check("fsrb mcp's flags and patch arguments", mcp, names(settings["fsrb mcp"]))

	lsp := flagNames(t, "cmd/fsrb-lsp/main.go")
	delete(lsp, "--version")
	delete(lsp, "--stdio")
	for name := range jsonTags(t, "lsp/lifecycle.go", "settings") {
		lsp[name] = true
	}
	check("fsrb-lsp's flags and settings", lsp, names(settings["fsrb-lsp"]))

	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Default json.RawMessage `json:"default"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal([]byte(readText(t, "editors/vscode/package.json")), &pkg); err != nil {
		t.Fatal(err)
	}
	vscode := map[string]bool{}
	for name, p := range pkg.Contributes.Configuration.Properties {
		vscode[name] = true
		for _, s := range settings["vscode"] {
			if s.name == name && s.def != string(p.Default) {
				t.Errorf("package.json: %s defaults to %s, the list says %s", name, p.Default, s.def)
			}
		}
	}
	check("VS Code's settings (package.json)", vscode, names(settings["vscode"]))

	defs := nvimDefaults(t)
	nvim := map[string]bool{}
	for name, def := range defs {
		nvim[name] = true
		for _, s := range settings["nvim"] {
			if s.name == name && s.def != def {
				t.Errorf("Neovim: %s defaults to %s, the list says %s", name, def, s.def)
			}
		}
	}
	check("the Neovim plugin's options (M.defaults)", nvim, names(settings["nvim"]))

	for _, s := range settings["env"] {
		if !strings.Contains(readText(t, s.def), s.name) {
			t.Errorf("%s does not read %s", s.def, s.name)
		}
	}
}

// nvimDefaults reads the plugin's defaults table, `M.defaults = { … }` in
// one of its Lua files, by text: one `key = value,` line per option.
func nvimDefaults(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("editors/nvim/lua/fsrb/*.lua")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Lua files: %v", err)
	}
	entry := regexp.MustCompile(`^  ([a-z_]+) = (.*),$`)
	for _, f := range files {
		text := readText(t, f)
		_, rest, ok := strings.Cut(text, "\nM.defaults = {\n")
		if !ok {
			continue
		}
		body, _, _ := strings.Cut(rest, "\n}\n")
		out := map[string]string{}
		for _, line := range strings.Split(body, "\n") {
			if m := entry.FindStringSubmatch(line); m != nil {
				out[m[1]] = m[2]
			}
		}
		return out
	}
	t.Fatal("no file of editors/nvim/lua/fsrb holds `M.defaults = {`")
	return nil
}

// The Neovim help lists every option under :help fsrb-setup, one per
// line ("  name  (type) …"), on_attach, capabilities and handlers on one.
func TestSettingsInTheNeovimHelp(t *testing.T) {
	help := readText(t, "editors/nvim/doc/fsrb.txt")
	_, rest, ok := strings.Cut(help, "Options (all optional):\n")
	if !ok {
		t.Fatal("fsrb.txt: no \"Options (all optional):\" under fsrb-setup")
	}
	section, _, _ := strings.Cut(rest, "\n\n")
	got := map[string]bool{}
	option := regexp.MustCompile(`^  ([a-z_]+(, [a-z_]+)*)( |$)`)
	for _, line := range strings.Split(section, "\n") {
		if m := option.FindStringSubmatch(line); m != nil {
			for _, name := range strings.Split(m[1], ", ") {
				got[name] = true
			}
		}
	}
	if g, want := sortedSet(got), names(settings["nvim"]); !slices.Equal(g, want) {
		t.Errorf(":help fsrb-setup lists %v, the list %v", g, want)
	}
}

// docs/settings.md names every setting of the list, and no other: the
// flags and VS Code settings it writes anywhere, the Neovim options of its
// Neovim table, and the variables of its environment table.
func TestSettingsInTheDocs(t *testing.T) {
	doc := readText(t, "docs/settings.md")
	code := regexp.MustCompile("`([^`]+)`")
	var spans []string
	for _, m := range code.FindAllStringSubmatch(doc, -1) {
		spans = append(spans, m[1])
	}
	flag := regexp.MustCompile(`(?:^| )(--[a-z-]+)`)
	gotFlags, gotVSCode := map[string]bool{}, map[string]bool{}
	for _, s := range spans {
		for _, m := range flag.FindAllStringSubmatch(s, -1) {
			gotFlags[m[1]] = true
		}
		if strings.HasPrefix(s, "fsrb.") {
			gotVSCode[s] = true
		}
	}
	var wantFlags []setting
	for _, fe := range []string{"fsrb", "fsrb mcp", "fsrb-lsp"} {
		for _, s := range settings[fe] {
			if strings.HasPrefix(s.name, "--") {
				wantFlags = append(wantFlags, s)
			}
		}
	}
	if g, want := sortedSet(gotFlags), names(wantFlags); !slices.Equal(g, want) {
		t.Errorf("docs/settings.md names the flags %v, the list %v", g, want)
	}
	if g, want := sortedSet(gotVSCode), names(settings["vscode"]); !slices.Equal(g, want) {
		t.Errorf("docs/settings.md names the VS Code settings %v, the list %v", g, want)
	}
	for _, table := range []struct{ heading, list string }{{"### Neovim", "nvim"}, {"## Environment", "env"}} {
		_, rest, ok := strings.Cut(doc, "\n"+table.heading+"\n")
		if !ok {
			t.Errorf("docs/settings.md has no %q section", table.heading)
			continue
		}
		got := map[string]bool{}
		row := regexp.MustCompile("^\\| `([^`]+)`")
		for _, line := range strings.Split(rest, "\n") {
			if strings.HasPrefix(line, "#") {
				break
			}
			if m := row.FindStringSubmatch(line); m != nil {
				got[m[1]] = true
			}
		}
		if g, want := sortedSet(got), names(settings[table.list]); !slices.Equal(g, want) {
			t.Errorf("docs/settings.md %s: %v, the list %v", table.heading, g, want)
		}
	}
	for _, s := range settings["fsrb mcp"] {
		if !strings.HasPrefix(s.name, "--") && !strings.Contains(doc, "`"+s.name+": true`") {
			t.Errorf("docs/settings.md does not name the MCP argument %s", s.name)
		}
	}
	for _, s := range settings["fsrb-lsp"] {
		if !strings.HasPrefix(s.name, "--") && !slices.Contains(spans, s.name) {
			t.Errorf("docs/settings.md does not name the server setting %s", s.name)
		}
	}
}
