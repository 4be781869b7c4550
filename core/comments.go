package core

import (
	"path"
	"strings"
	"sync"
)

// commentSet is a set of whole-line comment forms, one bit each. A
// snippet's omission markers are comments of its file's language
// (omissionMarker): "#" starts one in Python and none in JavaScript, "--"
// one in Lua and SQL and a decrement in C.
type commentSet uint16

const (
	commentHTML    commentSet = 1 << iota // <!-- ... -->
	commentJSX                            // {/* ... */}
	commentBlock                          // /* ... */
	commentSlash                          // // ...
	commentHash                           // # ...
	commentDash                           // -- ...
	commentSemi                           // ; ...
	commentPercent                        // % ...

	commentAny = commentHTML | commentJSX | commentBlock | commentSlash | commentHash | commentDash | commentSemi | commentPercent
)

// commentForms are the whole-line comment forms, longest opener first
// ("{/*" before "/*", "<!--" before any other): uncomment tries them in
// this order.
var commentForms = [...]struct {
	open, close string
	set         commentSet
}{
	{"<!--", "-->", commentHTML}, {"{/*", "*/}", commentJSX}, {"/*", "*/", commentBlock},
	{"//", "", commentSlash}, {"#", "", commentHash}, {"--", "", commentDash},
	{";", "", commentSemi}, {"%", "", commentPercent},
}

const (
	cLike    = commentSlash | commentBlock
	jsxLike  = cLike | commentJSX
	markup   = commentHTML
	webPages = commentHTML | cLike // Vue, Svelte, Astro: markup and scripts
)

// languageComments maps fence languages (as models and editors name them)
// and file extensions to their comment forms. A language not listed
// admits every form: the phrase alone then decides (omission). Built on
// first use, not at every start-up of the CLI.
var languageComments = sync.OnceValue(func() map[string]commentSet {
	return map[string]commentSet{
		// C's family and the languages that took its comments.
		"c": cLike, "h": cLike, "cpp": cLike, "c++": cLike, "cc": cLike, "cxx": cLike, "hpp": cLike, "hh": cLike, "hxx": cLike,
		"cs": cLike, "csharp": cLike, "c#": cLike, "java": cLike, "go": cLike, "golang": cLike, "rs": cLike, "rust": cLike,
		"swift": cLike, "kt": cLike, "kts": cLike, "kotlin": cLike, "scala": cLike, "sc": cLike, "dart": cLike,
		"groovy": cLike, "gradle": cLike, "proto": cLike, "protobuf": cLike, "zig": cLike, "sol": cLike, "solidity": cLike,
		"m": cLike, "mm": cLike, "objc": cLike, "objective-c": cLike, "objectivec": cLike, "d": cLike,
		"json5": cLike, "jsonc": cLike, "glsl": cLike, "hlsl": cLike, "wgsl": cLike, "cu": cLike, "cuda": cLike,
		"js": cLike, "javascript": cLike, "mjs": cLike, "cjs": cLike, "node": cLike,
		"ts": cLike, "typescript": cLike, "mts": cLike, "cts": cLike,
		"jsx": jsxLike, "tsx": jsxLike, "javascriptreact": jsxLike, "typescriptreact": jsxLike,
		"css": commentBlock, "scss": cLike, "sass": cLike, "less": cLike, "styl": cLike, "stylus": cLike,
		"php": cLike | commentHash | commentHTML,
		// "#".
		"py": commentHash, "pyi": commentHash, "pyw": commentHash, "python": commentHash, "python3": commentHash, "py3": commentHash,
		"rb": commentHash, "ruby": commentHash, "rake": commentHash, "gemspec": commentHash,
		"sh": commentHash, "bash": commentHash, "zsh": commentHash, "fish": commentHash, "shell": commentHash, "ksh": commentHash,
		"pl": commentHash, "pm": commentHash, "perl": commentHash, "r": commentHash, "jl": commentHash, "julia": commentHash,
		"ex": commentHash, "exs": commentHash, "elixir": commentHash, "nim": commentHash, "cr": commentHash, "crystal": commentHash,
		"yaml": commentHash, "yml": commentHash, "toml": commentHash, "dockerfile": commentHash, "docker": commentHash,
		"makefile": commentHash, "make": commentHash, "mk": commentHash, "cmake": commentHash, "ps1": commentHash,
		"psm1": commentHash, "powershell": commentHash, "pwsh": commentHash, "tcl": commentHash, "nix": commentHash,
		"graphql": commentHash, "gql": commentHash, "coffee": commentHash, "coffeescript": commentHash, "gitignore": commentHash,
		"dockerignore": commentHash, "env": commentHash, "dotenv": commentHash, "properties": commentHash,
		"conf": commentHash, "cfg": commentHash, "tf": commentHash | cLike, "hcl": commentHash | cLike, "terraform": commentHash | cLike,
		"ini": commentHash | commentSemi,
		// "--".
		"lua": commentDash, "sql": commentDash | commentBlock, "psql": commentDash | commentBlock, "mysql": commentDash | commentBlock,
		"plsql": commentDash | commentBlock, "hs": commentDash, "haskell": commentDash, "elm": commentDash, "ada": commentDash,
		"adb": commentDash, "ads": commentDash, "vhdl": commentDash, "vhd": commentDash, "purs": commentDash, "purescript": commentDash,
		// ";" and "%".
		"clj": commentSemi, "cljs": commentSemi, "cljc": commentSemi, "edn": commentSemi, "clojure": commentSemi,
		"lisp": commentSemi, "lsp": commentSemi, "el": commentSemi, "elisp": commentSemi, "emacs-lisp": commentSemi,
		"scm": commentSemi, "ss": commentSemi, "scheme": commentSemi, "rkt": commentSemi, "racket": commentSemi,
		"asm": commentSemi, "s": commentSemi | commentHash, "nasm": commentSemi,
		"tex": commentPercent, "latex": commentPercent, "sty": commentPercent, "cls": commentPercent, "bib": commentPercent,
		"erl": commentPercent, "hrl": commentPercent, "erlang": commentPercent, "matlab": commentPercent, "octave": commentPercent,
		"prolog": commentPercent,
		// Markup.
		"html": markup, "htm": markup, "xhtml": markup, "xml": markup, "svg": markup, "xsl": markup, "xslt": markup,
		"md": markup, "markdown": markup, "mdx": markup | commentJSX, "plist": markup, "csproj": markup, "xaml": markup,
		"vue": webPages, "svelte": webPages, "astro": webPages, "erb": webPages | commentHash, "jsp": webPages,
	}
})

// commentsOf returns the comment forms of the file at p (by its extension
// or, for Makefile and its kin, its name), else of the fence's language
// lang, else every form.
//
// The last answer is kept (lastAnswer): the lookup lowers a base name,
// then reads the table.
func commentsOf(lang, p string) commentSet {
	if k, set, ok := lastComments.load(); ok && k == (commentsKey{lang, p}) {
		return set
	}
	set := lookupComments(lang, p)
	lastComments.store(commentsKey{strings.Clone(lang), strings.Clone(p)}, set)
	return set
}

type commentsKey struct{ lang, path string }

var lastComments lastAnswer[commentsKey, commentSet]

func lookupComments(lang, p string) commentSet {
	if p != "" {
		base := strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/")))
		ext := strings.TrimPrefix(path.Ext(base), ".")
		if ext == "" || base == "."+ext { // "Makefile", ".gitignore"
			ext = strings.TrimPrefix(base, ".")
		}
		if base == "cmakelists.txt" {
			ext = "cmake"
		}
		if set, ok := languageComments()[ext]; ok {
			return set
		}
	}
	if set, ok := languageComments()[strings.ToLower(lang)]; ok {
		return set
	}
	return commentAny
}
