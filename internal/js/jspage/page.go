// Package js analyses a function-tool page (TypeScript or JavaScript)
// together with the files it imports: the host API calls they make
// (http.fetch, collections.*), the set of URLs each fetch may use, the
// page's default export, the HTTP header names set and the token-like
// literals held.
//
// It is a leaf package: plain structs with byte offsets into the ORIGINAL
// source files, no dependency on the analysis core; files are read
// through a callback.
//
// How: esbuild bundles the page with its relative imports (the way the
// runner does: one scope, a source map listing every file; several pages
// at once share one build, AnalyzeBundles); the bundle goes through the
// JavaScript front end, internal/js/jsfront (parse, scope model, value-set
// evaluator), whose walk calls this package's hooks (host.go) at every
// call, assignment, header object and literal; fetch URLs are evaluated
// once the walk has seen every call site. Every position goes back
// through the source map to its file, and ends are found by
// re-tokenizing the source (source maps give starts only).
//
// Where text is checked before a parser sees it: every file esbuild
// parses is read through loader.load; the bundle goja parses goes
// through jsfront.Parse.
//
// Architecture invariant: AnalyzeBundles never panics on any input, reads
// nothing but what its callback returns (goja's source-map loading is
// off), and bounds its work (values.go).
package jspage

import (
	"github.com/plugin-lsp/plugin-lsp/internal/js/jsfront"
	"github.com/plugin-lsp/plugin-lsp/internal/js/jslex"
	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// Span is a half-open byte range in the page source (the text layer's).
type Span = text.Span

// URLKind says how much of a fetch URL is known statically.
type URLKind = jsfront.Kind

// The URL kinds (jsfront's).
const (
	// Unknown: nothing usable is known (Reason says why).
	Unknown = jsfront.Unknown
	// Prefix: Value is a known prefix; the rest is computed at run time.
	Prefix = jsfront.Prefix
	// Exact: Value is the whole URL.
	Exact = jsfront.Exact
)

// URLValue is one URL a fetch argument may hold.
type URLValue struct {
	Kind   URLKind
	Value  string // the URL (Exact) or its known start (Prefix)
	Reason string // for Prefix/Unknown: what is not known statically
	Lit    Span   // the literal Value starts with, End == 0 when none
	// LitFile is the file Lit is in (a constant may live in an imported
	// file).
	LitFile string
}

// URLArg is the first argument of an http.fetch call.
type URLArg struct {
	// Values is every URL the argument may hold: one entry when the code
	// allows one answer, several for a ternary, a switch, a record
	// indexed at run time, a helper called with several bases. Kind,
	// Value, Reason and Lit below summarise the set (its common start).
	Values []URLValue
	Span   Span    // the argument expression
	Kind   URLKind //
	Value  string  // the URL (Exact) or its known start (Prefix)
	Reason string  // for Prefix/Unknown: what is not known statically
	// Lit is the string or template literal in the page where Value
	// starts (quotes included), wherever it is (the call, or a const
	// declaration); Lit.End == 0 when there is none.
	Lit Span
}

// HostCall is one call of a host API method.
type HostCall struct {
	// File is the plugin-relative file the call is in: the page, or a
	// file it imports (all spans of the call are in that file).
	File   string
	Object string // "http" or "collections"
	Method string // "fetch", "get", …; "" when the member is computed
	Span   Span   // the whole call, callee to closing parenthesis
	Callee Span   // the callee expression (http.fetch, h.fetch, f, …)
	// URL is the URL argument of http.fetch (nil for other methods or a
	// call without arguments).
	URL *URLArg
	// FetchMethod is the HTTP method of an http.fetch call from its init
	// ("GET" when there is no init or no method), "" when not known.
	FetchMethod string
}

// DefaultExport describes the page's default export.
type DefaultExport struct {
	Present bool
	Span    Span
	// Kind is "function", "class", "object", "value" or "unknown" (not
	// decidable statically: an imported or computed value).
	Kind string
	// Returns are where the default export function's value comes from,
	// when it is a function of the page itself: each of its own return
	// statements (the "return" keyword), or the start of an arrow
	// function's expression body. Spans are in the page.
	Returns []Span
}

// Header is an HTTP header name the page sets in code.
type Header struct {
	File string // the file the name is in
	Name string
	Span Span // the name (a key, or a string argument)
	// Remove is the text to delete to drop the header when it is a
	// property of an object literal (with its comma, or its whole line);
	// Remove.End == 0 otherwise.
	Remove Span
}

// Token is a string literal that looks like a credential.
type Token struct {
	File string // the file the literal is in
	Span Span
	Kind string // "GitHub token", "JWT", …
}

// SyntaxError is an error of the page (or a construct this analysis
// cannot read, when Unsupported is set).
type SyntaxError struct {
	File        string // "" for the page itself
	Span        Span
	Message     string
	Unsupported bool
}

// Page is everything AnalyzePage found.
type Page struct {
	Path string
	// Files are the plugin-relative files the analysis read: the page
	// first, then every file it imports (transitively), each with the
	// SHA-256 of the content read, so that a cache can tell whether an
	// edit elsewhere changes this page's answer.
	Files []FileHash
	// Via maps each imported file to the import in the page that brings
	// it in (directly or through other files): the span of the module
	// specifier string, so that what a lib file does can be shown where
	// the page imports it.
	Via           map[string]Span
	Calls         []HostCall
	DefaultExport DefaultExport
	Headers       []Header
	Tokens        []Token
	Errors        []SyntaxError
	// Globals are uses of globals the sandbox lacks (AbsentGlobals).
	Globals []GlobalRef
	// CallSites are the callees of every call expression (f, a.b.c,
	// h.fetch), in source order per file: the runner places each frame
	// of an error's stack at the call it was making.
	CallSites []CallSite
}

// CallSite is the callee expression of one call.
type CallSite struct {
	File   string // plugin-relative, like HostCall.File
	Callee Span
}

// MaxSize is the largest page analysed; a bigger one yields an error.
const MaxSize = jslex.MaxSource

// FileHash is one file an analysis read, with the hash of its content,
// or a file it looked for and did not find (Missing): creating it
// changes the answer too.
type FileHash struct {
	Rel     string
	Hash    [32]byte
	Missing bool
}

// ReadFunc reads a plugin file by its plugin-relative path. An error
// wrapping fs.ErrNotExist means "no such file" (the next candidate of an
// import is tried); any other error is reported on the import.
type ReadFunc func(rel string) ([]byte, error)
