package treesitter

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/css"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/html"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/lua"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/swift"
	"github.com/smacker/go-tree-sitter/toml"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
	"github.com/smacker/go-tree-sitter/yaml"
)

// Language is one grammar of the registry: how files are recognized, and
// the query that finds their definitions.
//
// The definitions query captures each definition node as
// @definition.<kind> (function, method, class, struct, impl, ...) and its
// name as @name; Go methods also capture @receiver, which qualifies the name
// ("Server.Start"). When several patterns match the same node, the first
// pattern wins, so specific patterns come before general ones. Captures
// whose name starts with "_" only serve predicates.
type Language struct {
	Name         string   // "go", "python", "typescript", ...
	Extensions   []string // lower case, with the dot: ".go"
	Filenames    []string // exact base names without a useful extension: "Gemfile"
	Interpreters []string // shebang interpreters, without version digits: "python"
	// Separator joins a nested definition's name to its container's:
	// "Greeter.hello", "Server::start", "Greeter#hello".
	Separator string
	// TypeSeparator, when set, joins a nested type instead ("A::B#m" in Ruby).
	TypeSeparator string

	// plainLabels: lines are not declarations, so Describe gives the kind
	// and the name ("table server", "element intro").
	plainLabels bool

	// stmtLines, for a language whose statements are items of a file,
	// finds the statement boundaries that let the syntax check parse the
	// edited statements alone (stmtwindow.go); nil: definition windows.
	stmtLines stmtLexer
	// stmtAlike tells an edit that keeps its statements' tokens, which
	// needs no parse (stmtalike.go); nil: every edit is parsed.
	stmtAlike stmtAlike

	grammar func() *sitter.Language
	query   string

	langOnce sync.Once
	lang     *sitter.Language
	parsers  sync.Pool // *tsparse.Parser of lang

	plainOnce sync.Once
	plain     []plainPattern // the query as plain patterns (enclosing.go), or nil

	queryOnce sync.Once
	q         *sitter.Query
	kind      []string // per capture id: the kind of a @definition.<kind> capture, or ""
	role      []role   // per capture id
	err       error
}

type role uint8

const (
	roleOther role = iota
	roleDefinition
	roleName
	roleReceiver
)

// grammarLanguage returns the grammar, loaded once.
func (l *Language) grammarLanguage() *sitter.Language {
	l.langOnce.Do(func() { l.lang = l.grammar() })
	return l.lang
}

// compiled returns the grammar and the compiled definitions query (nil for
// a language without one), built once, on first use (docs/ARCHITECTURE.md
// "Conventions": queries compiled once, never per call).
func (l *Language) compiled() (*sitter.Language, *sitter.Query, error) {
	lang := l.grammarLanguage()
	l.queryOnce.Do(func() {
		if strings.TrimSpace(l.query) == "" {
			return
		}
		q, err := sitter.NewQuery([]byte(l.query), lang)
		if err != nil {
			l.err = fmt.Errorf("treesitter: %s definitions query: %w", l.Name, err)
			return
		}
		l.q = q
		n := int(q.CaptureCount())
		l.kind = make([]string, n)
		l.role = make([]role, n)
		for i := 0; i < n; i++ {
			name := q.CaptureNameForId(uint32(i))
			switch {
			case strings.HasPrefix(name, "definition."):
				l.role[i], l.kind[i] = roleDefinition, strings.TrimPrefix(name, "definition.")
			case name == "name":
				l.role[i] = roleName
			case name == "receiver":
				l.role[i] = roleReceiver
			}
		}
	})
	return lang, l.q, l.err
}

// The registry. One entry per grammar; queries are written one pattern per
// line, most specific first, with the construct they match as a comment.
var languages = []*Language{
	{
		Name: "go", Extensions: []string{".go"}, Separator: ".",
		grammar: golang.GetLanguage,
		query: `
; func (s *Server) Start(ctx context.Context) error {
(method_declaration receiver: (parameter_list (parameter_declaration type: [(type_identifier) @receiver (pointer_type (type_identifier) @receiver) (generic_type type: (type_identifier) @receiver) (pointer_type (generic_type type: (type_identifier) @receiver))])) name: (field_identifier) @name) @definition.method
(method_declaration name: (field_identifier) @name) @definition.method
; func main() {
(function_declaration name: (identifier) @name) @definition.function
; type Server struct {
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
; type Store interface {
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
; type ID string
(type_spec name: (type_identifier) @name) @definition.type
`,
	},
	{
		Name: "python", Extensions: []string{".py", ".pyi", ".pyw"}, Interpreters: []string{"python", "pypy"},
		Separator: ".", grammar: python.GetLanguage, stmtLines: pyLexer, stmtAlike: pyAlike,
		query: `
; class Greeter(Base):
(class_definition name: (identifier) @name) @definition.class
; def hello(self, name):
(function_definition name: (identifier) @name) @definition.function
`,
	},
	{
		Name: "javascript", Extensions: []string{".js", ".mjs", ".cjs", ".jsx"}, Interpreters: []string{"node", "nodejs", "deno", "bun"},
		Separator: ".", grammar: javascript.GetLanguage,
		query: jsQuery,
	},
	{
		Name: "typescript", Extensions: []string{".ts", ".mts", ".cts"}, Separator: ".",
		grammar: typescript.GetLanguage, query: tsQuery + jsQuery,
	},
	{
		Name: "tsx", Extensions: []string{".tsx"}, Separator: ".",
		grammar: tsx.GetLanguage, query: tsQuery + jsQuery,
	},
	{
		Name: "rust", Extensions: []string{".rs"}, Separator: "::",
		grammar: rust.GetLanguage,
		query: `
; impl<T> Display for Wrapper<T> {
(impl_item type: (generic_type type: (type_identifier) @name)) @definition.impl
; impl Server {
(impl_item type: (_) @name) @definition.impl
; pub fn start(&mut self) -> Result<()> {
(function_item name: (identifier) @name) @definition.function
; fn len(&self) -> usize;   (in a trait)
(function_signature_item name: (identifier) @name) @definition.function
; struct Server {
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
; enum State {
(enum_item name: (type_identifier) @name) @definition.enum
; trait Store {
(trait_item name: (type_identifier) @name) @definition.trait
; mod tests {
(mod_item name: (identifier) @name) @definition.module
; macro_rules! square {
(macro_definition name: (identifier) @name) @definition.macro
`,
	},
	{
		Name: "java", Extensions: []string{".java"}, Separator: ".",
		grammar: java.GetLanguage,
		query: `
; public class Server {
(class_declaration name: (identifier) @name) @definition.class
; record Point(int x, int y) {
(record_declaration name: (identifier) @name) @definition.class
; interface Store {
(interface_declaration name: (identifier) @name) @definition.interface
; @interface Marker {
(annotation_type_declaration name: (identifier) @name) @definition.interface
; enum State {
(enum_declaration name: (identifier) @name) @definition.enum
; public void start() {
(method_declaration name: (identifier) @name) @definition.method
; public Server(int port) {
(constructor_declaration name: (identifier) @name) @definition.constructor
(compact_constructor_declaration name: (identifier) @name) @definition.constructor
`,
	},
	{
		Name: "c", Extensions: []string{".c", ".h"}, Separator: ".",
		grammar: c.GetLanguage, query: cQuery,
	},
	{
		Name: "cpp", Extensions: []string{".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl"},
		Separator: "::", grammar: cpp.GetLanguage,
		query: `
; namespace net {
(namespace_definition name: (_) @name) @definition.namespace
; class Server : public Base {
(class_specifier name: (_) @name body: (field_declaration_list)) @definition.class
` + cQuery + `
; Server& Server::operator=(const Server&) {
(function_definition declarator: (reference_declarator (function_declarator declarator: (_) @name))) @definition.function
`,
	},
	{
		Name: "csharp", Extensions: []string{".cs", ".csx"}, Separator: ".",
		grammar: csharp.GetLanguage,
		query: `
; namespace App.Net {
(namespace_declaration name: (_) @name) @definition.namespace
(file_scoped_namespace_declaration name: (_) @name) @definition.namespace
; public class Server {
(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
; public void Start() {
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.constructor
(destructor_declaration name: (identifier) @name) @definition.method
(property_declaration name: (identifier) @name) @definition.property
(local_function_statement name: (identifier) @name) @definition.function
`,
	},
	{
		Name: "ruby", Extensions: []string{".rb", ".rake", ".gemspec", ".ru"}, Filenames: []string{"Gemfile", "Rakefile", "Guardfile", "Vagrantfile"},
		Interpreters: []string{"ruby", "jruby"}, Separator: "#", TypeSeparator: "::", grammar: ruby.GetLanguage,
		query: `
; module Greeting
(module name: (_) @name) @definition.module
; class Greeter < Base
(class name: (_) @name) @definition.class
; def hello(name)
(method name: (_) @name) @definition.method
; def self.create
(singleton_method name: (_) @name) @definition.method
`,
	},
	{
		Name: "php", Extensions: []string{".php", ".phtml", ".php8"}, Interpreters: []string{"php"},
		Separator: "::", grammar: php.GetLanguage,
		query: `
; namespace App\Http;
(namespace_definition name: (_) @name) @definition.namespace
; class Server extends Base {
(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
; public function start(): void {
(method_declaration name: (name) @name) @definition.method
; function helper($x) {
(function_definition name: (name) @name) @definition.function
`,
	},
	{
		Name: "bash", Extensions: []string{".sh", ".bash"}, Filenames: []string{".bashrc", ".bash_profile", "PKGBUILD"},
		Interpreters: []string{"bash", "sh", "dash", "ksh"}, Separator: ".", grammar: bash.GetLanguage,
		query: `
; deploy() {
(function_definition name: (word) @name) @definition.function
`,
	},
	{
		Name: "lua", Extensions: []string{".lua"}, Interpreters: []string{"lua", "luajit"}, Separator: ".",
		grammar: lua.GetLanguage,
		query: `
; function M.start(opts)   /   local function helper()
(function_statement (function_name) @name) @definition.function
(function_statement name: (identifier) @name) @definition.function
`,
	},
	{
		Name: "kotlin", Extensions: []string{".kt", ".kts"}, Separator: ".",
		grammar: kotlin.GetLanguage,
		query: `
; class Server(val port: Int) {   /   interface Store {
(class_declaration (type_identifier) @name) @definition.class
; object Registry {
(object_declaration (type_identifier) @name) @definition.object
; companion object {
(companion_object) @definition.object
; fun start(): Boolean {
(function_declaration (simple_identifier) @name) @definition.function
`,
	},
	{
		Name: "swift", Extensions: []string{".swift"}, Separator: ".",
		grammar: swift.GetLanguage,
		query: `
; struct Point {
(class_declaration declaration_kind: "struct" name: (_) @name) @definition.struct
(class_declaration declaration_kind: "enum" name: (_) @name) @definition.enum
(class_declaration declaration_kind: "extension" name: (_) @name) @definition.extension
; class Server {
(class_declaration name: (_) @name) @definition.class
; protocol Store {
(protocol_declaration name: (_) @name) @definition.protocol
; func start() -> Bool {
(function_declaration name: (_) @name) @definition.function
(protocol_function_declaration name: (_) @name) @definition.function
; init(port: Int) {
(init_declaration "init" @name) @definition.constructor
`,
	},
	{
		Name: "scala", Extensions: []string{".scala", ".sc", ".sbt"}, Separator: ".",
		grammar: scala.GetLanguage,
		query: `
; class Server(port: Int) {
(class_definition name: (_) @name) @definition.class
; object Main {
(object_definition name: (_) @name) @definition.object
; trait Store {
(trait_definition name: (_) @name) @definition.trait
; enum Color {
(enum_definition name: (_) @name) @definition.enum
; def start(): Unit = {
(function_definition name: (_) @name) @definition.function
(function_declaration name: (_) @name) @definition.function
`,
	},
	{
		Name: "yaml", Extensions: []string{".yaml", ".yml"}, Separator: ".", plainLabels: true,
		grammar: yaml.GetLanguage,
		query: `
; server:            (a key that holds a nested block)
(block_mapping_pair key: (_) @name value: (block_node)) @definition.key
`,
	},
	{
		Name: "toml", Extensions: []string{".toml"}, Filenames: []string{"Cargo.lock", "Pipfile"}, Separator: ".", plainLabels: true,
		grammar: toml.GetLanguage,
		query: `
; [server]   /   [[servers]]
(table [(bare_key) (dotted_key) (quoted_key)] @name) @definition.table
(table_array_element [(bare_key) (dotted_key) (quoted_key)] @name) @definition.table
`,
	},
	{
		Name: "html", Extensions: []string{".html", ".htm", ".xhtml"}, plainLabels: true,
		grammar: html.GetLanguage,
		query: `
; <section id="intro">
(element (start_tag (attribute (attribute_name) @_attr (quoted_attribute_value (attribute_value) @name))) (#eq? @_attr "id")) @definition.element
`,
	},
	{
		Name: "css", Extensions: []string{".css"}, plainLabels: true,
		grammar: css.GetLanguage,
		query: `
; @media (max-width: 600px) {
(media_statement) @definition.media
; .button:hover, a {
(rule_set (selectors) @name) @definition.rule
`,
	},
}

// jsQuery serves JavaScript, TypeScript and TSX (the TypeScript grammars
// extend JavaScript's).
const jsQuery = `
; class Server extends Base {
(class_declaration name: (_) @name) @definition.class
(class name: (_) @name) @definition.class
; function start(port) {
(function_declaration name: (_) @name) @definition.function
(generator_function_declaration name: (_) @name) @definition.function
; start(port) {   (in a class or an object literal)
(method_definition name: (_) @name) @definition.method
; const start = (port) => {
(variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]) @definition.function
; start: function (port) {
(pair key: (_) @name value: [(arrow_function) (function_expression) (generator_function)]) @definition.method
`

// tsQuery adds TypeScript's own declarations before jsQuery.
const tsQuery = `
; interface Store {
(interface_declaration name: (_) @name) @definition.interface
; enum Color {
(enum_declaration name: (_) @name) @definition.enum
; type Handler = (req: Request) => void;
(type_alias_declaration name: (_) @name) @definition.type
; abstract class Shape {
(abstract_class_declaration name: (_) @name) @definition.class
; namespace App {
(internal_module name: (_) @name) @definition.namespace
; declare module "fs" {
(module name: (_) @name) @definition.module
; start(): void;   (in an interface)
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
; function start(port: number): void;   (an overload)
(function_signature name: (_) @name) @definition.function
`

// cQuery serves C, and C++ after its own patterns.
const cQuery = `
; int main(int argc, char **argv) {
(function_definition declarator: (function_declarator declarator: (_) @name)) @definition.function
; char *dup(const char *s) {
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (_) @name)))) @definition.function
; struct server {
(struct_specifier name: (_) @name body: (field_declaration_list)) @definition.struct
(union_specifier name: (_) @name body: (field_declaration_list)) @definition.struct
; enum state {
(enum_specifier name: (_) @name body: (enumerator_list)) @definition.enum
`

// registry indexes the languages by what names their files. It is built
// on first use, not in an init: a run that reads no file's language (fsrb
// --version, a patch of plain-text files) does not pay for its maps.
type registry struct {
	byExtension, byFilename, byInterpreter, byName map[string]*Language
}

// theRegistry is the index of languages. The registry is data, and two
// grammars claiming one extension is a bug: the first use panics on it, and
// TestRegistryIndexes checks it before that.
var theRegistry = sync.OnceValue(func() *registry {
	r, err := indexLanguages(languages)
	if err != nil {
		panic(err.Error())
	}
	return r
})

// indexLanguages builds the registry of langs, or says which key two of
// them claim or which extension is malformed.
func indexLanguages(langs []*Language) (*registry, error) {
	r := &registry{
		byExtension:   map[string]*Language{},
		byFilename:    map[string]*Language{},
		byInterpreter: map[string]*Language{},
		byName:        make(map[string]*Language, len(langs)),
	}
	for _, l := range langs {
		if err := register(r.byName, l.Name, l, "language name"); err != nil {
			return nil, err
		}
		for _, e := range l.Extensions {
			if e != strings.ToLower(e) || !strings.HasPrefix(e, ".") {
				return nil, fmt.Errorf("treesitter: %s: extension %q must be lower case with a leading dot", l.Name, e)
			}
			if err := register(r.byExtension, e, l, "extension"); err != nil {
				return nil, err
			}
		}
		for _, f := range l.Filenames {
			if err := register(r.byFilename, f, l, "file name"); err != nil {
				return nil, err
			}
		}
		for _, i := range l.Interpreters {
			if err := register(r.byInterpreter, i, l, "interpreter"); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

// register adds key to m, or reports the language that has it already.
func register(m map[string]*Language, key string, l *Language, what string) error {
	if prev, ok := m[key]; ok {
		return fmt.Errorf("treesitter: %s %q registered twice (%s and %s)", what, key, prev.Name, l.Name)
	}
	m[key] = l
	return nil
}

// LanguageFor returns the grammar for a file: by extension, then by exact
// file name, then by the interpreter of a "#!" first line. Nil when none
// applies.
func LanguageFor(path string, content []byte) *Language {
	base := filepath.Base(filepath.ToSlash(path))
	if i := strings.LastIndexByte(base, '/'); i >= 0 {
		base = base[i+1:]
	}
	r := theRegistry()
	if l := r.byExtension[strings.ToLower(filepath.Ext(base))]; l != nil {
		return l
	}
	if l := r.byFilename[base]; l != nil {
		return l
	}
	if name := interpreter(content); name != "" {
		return r.byInterpreter[name]
	}
	return nil
}

// interpreter returns the program a "#!" line runs, without its directory
// and version ("#!/usr/bin/env python3.12" gives "python"), or "".
func interpreter(content []byte) string {
	if !bytes.HasPrefix(content, []byte("#!")) {
		return ""
	}
	line := content[2:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	fields := strings.Fields(string(line))
	if len(fields) == 0 {
		return ""
	}
	prog := filepath.Base(fields[0])
	if prog == "env" {
		prog = ""
		for _, f := range fields[1:] {
			if strings.HasPrefix(f, "-") || strings.Contains(f, "=") {
				continue // env flags (-S, -i) and variable assignments
			}
			prog = filepath.Base(f)
			break
		}
	}
	return strings.TrimRight(prog, "0123456789.")
}
