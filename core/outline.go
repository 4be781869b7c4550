package core

// Outliner reads a text's structure for chat snippets (answer.go): the
// definitions and statements a grammar sees, as a tree of Items. core
// knows no grammar; pipeline.Validate plugs tree-sitter in (Options). ok
// is false when the path's language has no grammar: snippets then resolve
// by equal lines only. An outliner may return the same items again for
// the same text, but never modifies items it has returned: the resolver
// remembers what it read of an outline by its identity.
type Outliner func(path, text string) (items []Item, ok bool)

// Item is one node of a text that starts on a line of its own: a
// definition (function, method, class, impl, type...), a statement, or a
// comment. Lines are 0-based, half open.
type Item struct {
	// Lead is the first line of the doc comments and decorators that go
	// with a definition (== Start when it has none); Start its first line;
	// End the line after its last. Lead lines are not items of their own
	// (the resolver drops such items if an outliner lists them).
	Lead, Start, End int
	// Kind and Name say what a definition is ("function", "method",
	// "class", "type", "impl", ...; Name as written: "Start", "Server").
	// Scope is the receiver or enclosing class as the text shows it
	// ("Server"), "" at top level or when it cannot tell.
	Kind, Name, Scope string
	// Key pairs a statement with the one it rewrites: its kind and target
	// ("assign addr", "for job in jobs"); "" when only equal text pairs it.
	// A definition's key is its Kind and Name.
	Key string
	// Kids are the items of its body (a class's members, a function's
	// statements, a compound statement's block), nil for a leaf. Head is
	// the line where the body starts (the line after the signature's
	// opening line or lines) and Tail the first line after the body (the
	// closing brace's line; == End in an indentation language).
	Kids       []Item
	Head, Tail int
}

// Definition reports whether the item is a definition (it has a Name).
func (it *Item) Definition() bool { return it.Name != "" }
