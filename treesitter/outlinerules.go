package treesitter

import "slices"

// The node types an outline reads (outline.go), one table for every
// grammar: the grammars share their names for the same constructs (a
// Python, Go and Rust "block", a JavaScript and TypeScript
// "statement_block"), so a name serves each grammar that has it.
// Definitions are not listed here: the definitions queries of
// languages.go say what a definition is and what its name is.
//
// The sets are lists, not maps: they are read once per grammar, when its
// symbols' roles are worked out (symbolsOf), and a list is data the
// compiler lays out where a map would be built in every process at start.

var (
	// outlineComments are comments: items of their own, with no key.
	outlineComments = []string{"comment", "line_comment", "block_comment"}

	// outlineDecorators go with the definition after them: a definition's
	// Lead starts at them. Rust's attributes are siblings of their item,
	// absorbed into it; the others are children of the definition.
	outlineDecorators = []string{"decorator", "attribute_item", "annotation", "marker_annotation", "attribute_list"}

	// outlineBodies hold items: their named children that start a line.
	// The body's "{" (or a JSX opening tag) ends the lines before its
	// contents, its "}" starts the lines after them.
	outlineBodies = []string{
		"block", "statement_block", "compound_statement", // statements
		"class_body", "declaration_list", "field_declaration_list", "enum_variant_list", // members
		"interface_body", "object_type", "enum_body", "interface_type", "enum_class_body",
		"match_block", "switch_body", // arms and cases
		"import_spec_list",     // Go's import ( ... )
		"object", "dictionary", // JavaScript's and Python's literals: options, tables
		"jsx_element",            // a component's markup
		"body_statement", "then", // Ruby's bodies, closed by "end"
	}

	// outlineSelfBodied hold their items directly, after a ":" (a case
	// of a switch), between braces (Go's switch statements) or
	// parentheses (Go's grouped declarations).
	outlineSelfBodied = []string{
		"expression_case", "default_case", "type_case", "communication_case", // Go
		"switch_case", "switch_default", // JavaScript, TypeScript
		"expression_switch_statement", "type_switch_statement", "select_statement", // Go
		"var_declaration", "const_declaration", "type_declaration", // Go's ( ... ) groups
	}

	// outlineClauses continue a compound statement after its first
	// body: items among its Kids, keyed by their header ("else",
	// "elif x", "except ValueError").
	outlineClauses = []string{"else_clause", "elif_clause", "except_clause", "except_group_clause", "finally_clause", "catch_clause",
		"else", "elsif", "when", "rescue", "ensure"} // Ruby's, named nodes there

	// outlineIfs are the statements whose "else" may hold another one:
	// "else if x" is one clause.
	outlineIfs = []string{"if_statement", "if_expression"}

	// outlineCompounds are keyed by their header, the text before their
	// body ("for job in jobs", "if err != nil", "case 1").
	outlineCompounds = []string{
		"if_statement", "if_expression", "for_statement", "for_in_statement", "for_expression",
		"while_statement", "while_expression", "loop_expression", "do_statement",
		"with_statement", "try_statement", "match_statement", "match_expression", "switch_statement",
		"expression_switch_statement", "type_switch_statement", "select_statement",
		"case_clause", "expression_case", "default_case", "type_case", "communication_case",
		"switch_case", "switch_default",
		"else_clause", "elif_clause", "except_clause", "except_group_clause", "finally_clause", "catch_clause",
		"if", "unless", "while", "until", "for", "case", "else", "elsif", "when", "rescue", "ensure", // Ruby
		"enhanced_for_statement", // Java
	}

	// outlineWrappers stand for the one declaration or expression they
	// hold (the last named child, ending where they end): an exported or
	// decorated definition, a statement around an expression.
	outlineWrappers = []string{
		"decorated_definition", "export_statement", "expression_statement", "type_declaration",
		"lexical_declaration", "variable_declaration", "ambient_declaration",
		"await", "await_expression", "parenthesized_expression",
	}

	// outlineAssignments are keyed "assign" and their left side.
	outlineAssignments = []string{
		"assignment", "augmented_assignment", // Python
		"assignment_expression", "augmented_assignment_expression", // JavaScript, Rust
		"compound_assignment_expr",                      // Rust
		"short_var_declaration", "assignment_statement", // Go
	}

	// outlineCalls are keyed "call" and their callee.
	outlineCalls = []string{"call", "call_expression", "method_invocation", "invocation_expression"}

	// outlineReturns are keyed "return".
	outlineReturns = []string{"return_statement", "return_expression"}

	// outlineImports are keyed "import" and the module.
	outlineImports = []string{"import_statement", "import_from_statement", "future_import_statement", "import_declaration", "use_declaration"}

	// outlineFields are keyed "field" and their name.
	outlineFields = []string{"field_declaration", "public_field_definition", "field_definition", "property_signature", "pair"}

	// outlineParameters are not searched for bodies: a callback's
	// default or an inline type in a signature holds no item of the
	// definition's body.
	outlineParameters = []string{"parameters", "formal_parameters", "parameter_list", "type_parameters", "type_annotation", "return_type"}
)

// outlineRepair is a line around a snippet that lets it parse as its
// language's items: statements of Go or Rust in a function, methods of
// JavaScript or TypeScript in a class. The snippet's items are the
// wrapper's; its name "_" is no scope.
type outlineRepair struct{ prefix, suffix string }

// outlineRepairs returns the repairs of a language, in the order they are
// tried.
func outlineRepairs(lang string) []outlineRepair {
	for _, r := range repairsByLanguage {
		if r.lang == lang {
			return r.repairs
		}
	}
	return nil
}

// repairsByLanguage is a table, not a map: data the compiler lays out,
// with nothing to build when the program starts.
var repairsByLanguage = [...]struct {
	lang    string
	repairs []outlineRepair
}{
	{"go", []outlineRepair{{"func _() {\n", "\n}\n"}}},
	{"rust", []outlineRepair{{"fn _() {\n", "\n}\n"}, {"impl _ {\n", "\n}\n"}}},
	{"javascript", []outlineRepair{{"class _ {\n", "\n}\n"}, {"function _() {\n", "\n}\n"}}},
	{"typescript", []outlineRepair{{"class _ {\n", "\n}\n"}, {"function _() {\n", "\n}\n"}}},
	{"tsx", []outlineRepair{{"class _ {\n", "\n}\n"}, {"function _() {\n", "\n}\n"}}},
	{"java", []outlineRepair{{"class _ {\n", "\n}\n"}}},
	{"csharp", []outlineRepair{{"class _ {\n", "\n}\n"}}},
}

// outlineDescend reports the node types a statement's key reads the
// children of (statementKey, importKey): under a statement of one line,
// the flattened tree reads those only.
func outlineDescend(typ string) bool {
	for _, set := range [...][]string{outlineWrappers, outlineAssignments, outlineCalls, outlineImports, outlineFields, outlineDeclarations} {
		if slices.Contains(set, typ) {
			return true
		}
	}
	return false
}

// outlineDeclarations are keyed by the names they declare (a match arm
// by its pattern).
var outlineDeclarations = []string{
	"variable_declarator", "var_declaration", "const_declaration", "var_spec", "const_spec",
	"let_declaration", "const_item", "static_item", "import_spec", "aliased_import", "macro_invocation",
	"local_variable_declaration", "declaration", "init_declarator", "match_arm",
}

// outlineRole is a bit set of the roles above, per symbol
// (symbols.roles): the walk asks them of every node.
type outlineRole uint16

const (
	rComment outlineRole = 1 << iota
	rDecorator
	rBody
	rSelfBodied
	rClause
	rIf
	rCompound
	rWrapper
	rAssignment
	rCall
	rReturn
	rImport
	rField
	rParameters
)

// outlineRoles returns the roles of a node type.
func outlineRoles(typ string) outlineRole {
	var r outlineRole
	for _, s := range []struct {
		set  []string
		role outlineRole
	}{
		{outlineComments, rComment}, {outlineDecorators, rDecorator}, {outlineBodies, rBody},
		{outlineSelfBodied, rSelfBodied}, {outlineClauses, rClause}, {outlineIfs, rIf},
		{outlineCompounds, rCompound}, {outlineWrappers, rWrapper}, {outlineAssignments, rAssignment},
		{outlineCalls, rCall}, {outlineReturns, rReturn}, {outlineImports, rImport},
		{outlineFields, rField}, {outlineParameters, rParameters},
	} {
		if slices.Contains(s.set, typ) {
			r |= s.role
		}
	}
	return r
}
