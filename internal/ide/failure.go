package ide

import "fmt"

// Failure is why a command did not do what it was asked: the sentence
// the user reads and its kind, which the protocol layer turns into an
// error code. The sentences that state a decision (the plugin has none,
// the approval is stale, the user declined) are made here; a failure that
// only passes an underlying error on, and the refusals of a malformed
// request, are the protocol layer's.
type Failure struct {
	Kind    FailureKind
	Message string
}

// FailureKind is whose the failure is.
type FailureKind int

// The kinds of failure.
const (
	// FailInvalid: the request cannot be done as asked (no plugin there,
	// a tool that is not runnable, a stale approval); the user can change it.
	FailInvalid FailureKind = iota
	// FailDeclined: the user said no to the question asked first.
	FailDeclined
	// FailInternal: the server failed doing it.
	FailInternal
)

func failf(kind FailureKind, format string, args ...any) *Failure {
	return &Failure{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// NoPlugin is the failure of a command on a directory without a
// plugin.json.
func NoPlugin(dir string) *Failure {
	return failf(FailInvalid, "%s has no plugin.json", dir)
}
