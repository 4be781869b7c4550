// Package treesitter gives fsrb's engine the syntax of the files it edits,
// through the tree-sitter grammars of github.com/smacker/go-tree-sitter
// (docs/ARCHITECTURE.md "Tree-sitter"):
//
//   - languages.go: the registry, one table from file extensions, file
//     names and shebang interpreters to a grammar and the query that
//     captures its definitions (LanguageFor);
//   - definitions.go: the chain of definitions around a byte range
//     (Cache.EnclosingDefinitions) and a short label for messages (Describe);
//   - enclosing.go: that chain from the range's ancestors, for languages
//     whose query is plain patterns only (plainpattern.go: every language
//     but HTML), with no query compiled;
//   - disambiguate.go: per occurrence of an ambiguous SEARCH block, the
//     shortest widening that matches only there, reaching up to an
//     enclosing signature when that costs at most two lines more, and an
//     "@@" anchor for the apply-patch format (Cache.Widen);
//   - outline.go, outlinewalk.go, outlinerules.go: the items of a file or
//     a chat snippet, level by level, for core's resolver (Cache.Outline,
//     core.Outliner; Outline without a cache); flat.go: the tree they
//     read, flattened in one cgo call;
//   - syntax.go: the syntax errors an edit adds (Cache.SyntaxErrors);
//   - explain.go: what the engine plugs in (Explain, SyntaxProblems);
//   - cache.go, tree.go: parse trees cached per path and content,
//     re-parsed incrementally, parsers pooled, parses bounded in time.
//
// Explain, Outline and SyntaxProblems, the engine's hooks, use
// DefaultCache; a language server keeps its own Cache and passes document
// versions and edits to Cache.Parse.
//
// Every position is a byte offset into the content; lines are 1-based and
// come from the package's own line index. Files are expected in UTF-8 with
// LF line endings, as the engine matches them.
//
// Build cost: the grammars are C compiled by cgo, about 20-50 seconds for
// the first build on two cores (Swift, C# and Kotlin are the largest);
// afterwards the Go build cache serves them. Keep GOCACHE between CI runs.
package treesitter
