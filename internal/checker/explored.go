package checker

// Exploration is what running one function tool in fresh sandboxes with
// generated inputs and stubbed responses saw (the runner's explore
// package produces it; the checker only reads it, so the rules know
// nothing of the runner). A fetch seen there is reachable at its call.
type Exploration struct {
	// Fetches are the distinct (call site, host) pairs seen, first run
	// first.
	Fetches []ExploredFetch
	// Methods are the host methods the tool called ("http.fetch",
	// "collections.get"), sorted.
	Methods []string
	// Runs is how many runs the findings are from: the plan's, or the
	// first Stopped. Complete: every one finished (false: a run spent its
	// budget of work or hit the memory cap, or was cut, and what it did
	// not reach is unknown).
	Runs     int
	Complete bool
	// Stopped is the number (from 1, in plan order) of the run that spent
	// its budget of work, after which the tool's exploration stopped: no
	// run after it counts, whatever the machine's load (a tool that loops
	// on every input costs a few runs, not the plan's). 0: no run looped.
	Stopped int
	// StoppedInput is the input of that run (compact JSON, for
	// `plugin-lsp run --input`), StoppedAnswer how its fetches were
	// answered when not by the fixtures ("200 []", "404 {}", "500 {}").
	StoppedInput, StoppedAnswer string
	// Cut: a wall-time backstop or a cancellation ended a run or the
	// exploration, so what it reached depends on the machine's load and
	// the moment (it is not kept; the next check explores again). The
	// budget of work ends a run at the same point on any machine: a
	// result it bounded is not Cut.
	Cut bool
}

// ExploredFetch is one http.fetch an exploration run made.
type ExploredFetch struct {
	// Site is where the call was made: the innermost frame in a plugin
	// file (a lib file's line when the call is inside one); Via is the
	// page's frame that led there when Site is in another file.
	Site, Via Site
	URL, Host string
	// Dynamic: the host holds a marker value of the input (a free-form
	// string), so it depends on the input and is not a host to report.
	Dynamic bool
	// Guessed: the host holds a value the exploration made up for a
	// free-form string (a literal of the page, an example's value): it is
	// reached, but it is the input's host, not one to report.
	Guessed bool
	// Input is the input that reached the call, compact JSON, for
	// `plugin-lsp run --input`.
	Input string
}

// ExploreMarker starts the value exploration gives a free-form string
// input: a host that holds it was built from the input. Lower-case letters
// and digits, valid in a host name.
const ExploreMarker = "zqmark"

// Site is a position in a plugin file: plugin-relative path, 1-based
// line and column ("" File: unknown).
type Site struct {
	File      string
	Line, Col int
}
