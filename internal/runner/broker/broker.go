// Package broker is the Go side of a function tool's http.fetch:
// it decides whether a request may leave the sandbox, adds
// the credentials the sandbox must never see, applies the per-capability
// size and time caps, never follows redirects, counts fetches and keeps
// the run's audit log.
//
// Every URL and host decision is made by internal/fetchurl, the one
// definition shared with the static checker, so what `check` predicts is
// what the broker enforces. What a run may reach (domains, caps,
// credentials, their validity) comes from internal/checker/capability, the model
// the checker, the review card and the snapshot read too: a credential
// the model calls broken is never injected, and every request it might
// have applied to is refused.
//
// Architecture invariants: a refused request never reaches a Provider (so
// it opens no socket); secret values never appear in an record.FetchEntry, in an
// error returned to the tool, or in a response handed back to the tool.
// The package never imports runner or lsp.
//
// Wiring for one run (the runner's side):
//
//	fx, err := broker.LoadFixtures(fixturesPath) // missing file: empty fixtures
//	reach := capability.FromManifest(plugin.Manifest) // the one model of the reach
//	var p broker.Provider = broker.NewFixtureProvider(fx) // "fake"
//	// "real": p = broker.NewNetworkProvider(broker.NetworkOptions{})
//	b := broker.New(broker.Config{Reach: reach, Secrets: broker.SecretStore(pluginName, fx, os.Getenv), Provider: p})
//	// http.fetch → b.Fetch(runCtx, req); after the last Fetch has returned:
//	// record.Fetches = b.Audit(); record.Secrets = b.SecretAudit();
//	// logs, result, error → b.Redact(...)
package broker

import (
	"context"
	"fmt"
	"net/http"
	"net/textproto"
	"sort"
	"sync"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
	"github.com/plugin-lsp/plugin-lsp/internal/scrub"
)

// Limits.
const (
	DefaultMaxFetches = 64
	// MaxURLBytes bounds the URL a tool may pass: longer URLs are refused
	// before anything else looks at them.
	MaxURLBytes = 8 << 10
	// MaxRequestBodyBytes bounds the body a tool may send.
	MaxRequestBodyBytes = checker.MaxFetchMaxBytes
	// MaxRequestHeaderBytes bounds the headers a tool may send (names and
	// values together).
	MaxRequestHeaderBytes = 64 << 10
)

// Capability is one fetch entry (capability.Fetch): zero caps mean the
// defaults (1 MiB, 10 s); caps above the ceilings (16 MiB, 60 s) are clamped.
type Capability = capability.Fetch

// Credential is one credential entry (capability.Credential): the secret
// Name lands in Header, formatted by Format ("Bearer {{secret}}"), on
// requests to Domains (nil: every allowed domain).
type Credential = capability.Credential

// Secrets resolves dev secrets host-side: capability.DevSecrets, the one
// resolver (SecretStore builds it for a plugin), is the implementation.
type Secrets interface {
	Resolve(name string) capability.SecretResolution
}

// Request is what the tool asked for. Method defaults to GET.
type Request struct {
	Method, URL string
	Header      http.Header
	Body        []byte
	// Seq is the order in which the tool made the call (1, 2, …), when
	// calls run in parallel and may reach the broker in another order:
	// Audit lists calls by it. 0: the order they reach the broker.
	Seq int
	// budget is the run's in-flight budget a provider reads the body
	// into (nil: none).
	budget *budget
	// scrub is the run's scrubber (nil: no secret): a provider that
	// scrubs the body as it reads it sets Response.scrubbed to it.
	scrub *scrub.Scrubber
}

// Response is what comes back to the tool. URL is the URL that answered
// (always the requested one: redirects are not followed).
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	URL    string
	// hold is the body's share of the run's in-flight budget.
	hold *hold
	// scrubbed is the scrubber the provider already passed the body and
	// headers through (internal/scrub); received the bytes it read (0: the
	// length of Body).
	scrubbed *scrub.Scrubber
	received int64
}

// Release returns the body's bytes to the run's budget of responses in
// flight: call it once the body has been handed on (nil-safe, idempotent).
func (r *Response) Release() {
	if r != nil {
		r.hold.release()
	}
}

// Source says where a response came from.
type Source string

const (
	SourceFixture Source = "fixture"
	SourceNetwork Source = "network"
)

// Provider answers a request the broker has already allowed and decorated
// with credentials. limits holds the effective caps (never zero): a
// provider must not read more than MaxBytes+1 body bytes. The context
// carries the per-capability timeout.
type Provider interface {
	RoundTrip(ctx context.Context, req *Request, limits Capability) (*Response, Source, error)
}

// Config configures one Broker (one run).
type Config struct {
	// Reach is what the run may reach (capability.FromManifest). When it
	// is nil, Fetch and Credentials are read as capability.Build does.
	Reach       *capability.Reach
	Fetch       []Capability
	Credentials []Credential
	Secrets     Secrets
	Provider    Provider
	MaxFetches  int // default 64
	// MaxInflightBytes is the run's budget of response bytes held at once
	// (default DefaultMaxInflightBytes).
	MaxInflightBytes int64
}

// Reasons of the broker's own refusals and failures (fetchurl's reasons
// are used as they are for URL and host refusals).
const (
	ReasonLimit       = "limit"          // more than MaxFetches calls in the run
	ReasonNoFixture   = "no-fixture"     // fake provider: no fixture answers
	ReasonBadMethod   = "bad-method"     // not GET/HEAD/POST/PUT/PATCH/DELETE/OPTIONS
	ReasonBadHeader   = "bad-header"     // invalid header name or value from the tool
	ReasonTooLarge    = "too-large"      // request or response over its cap
	ReasonNoSecret    = "no-secret"      // a credential in scope has no dev secret
	ReasonBadSecret   = "bad-secret"     // the secret cannot go into a header
	ReasonCredential  = "bad-credential" // the credential's header or format is unusable
	ReasonTimeout     = "timeout"        // fetchTimeoutMs elapsed
	ReasonCancelled   = "cancelled"      // the run ended (deadline) during the call
	ReasonNetwork     = "network"        // the provider failed
	ReasonNoProvider  = "no-provider"    // the broker was built without a provider
	ReasonInvalidResp = "bad-response"   // the provider broke its contract
	ReasonEncoded     = "encoded"        // a response coding the broker cannot scrub (br, deflate, …)
)

// Error is what Fetch returns: safe to show to the tool (it never holds a
// secret value). Refused is set when the request never left the broker.
type Error struct {
	Reason  string
	Message string
	Refused bool
}

func (e *Error) Error() string { return e.Message }

// Stats summarizes a run's fetches for its usage record.
type Stats struct {
	Calls   int   // every Fetch call, refused or not
	Sent    int   // calls handed to the provider
	Bytes   int64 // response body bytes received
	Dropped int   // calls over the limit not written to the audit log
}

// Broker enforces one run's fetch rules. It is safe for concurrent use.
type Broker struct {
	caps       map[string]Capability // normalized host → effective caps
	allow      fetchurl.Allowlist
	creds      []credential
	provider   Provider
	maxFetches int
	scrub      *scrub.Scrubber // every secret value known (internal/scrub); nil when none
	inflight   *budget

	// resolved: one per credential with a name, in manifest order.
	resolved []capability.SecretResolution

	mu      sync.Mutex
	audit   []record.FetchEntry
	seqs    []int // Request.Seq of each audit entry
	calls   int
	sent    int
	bytes   int64
	dropped int
}

type credential struct {
	capability.Credential
	header  string // canonical header key
	value   string
	found   bool
	problem string // why this credential cannot be used, "" when fine
	reason  string
	refusal string // the resolver's words when no secret is bound
}

const secretMarker = capability.SecretMarker

// New builds a broker for one run from the capability model: only its
// fetch entries are reachable (with their effective caps), only its
// usable credentials are injected. Credential secrets are resolved once,
// here.
func New(cfg Config) *Broker {
	reach := cfg.Reach
	if reach == nil {
		reach = capability.Build(nil, cfg.Fetch, cfg.Credentials)
	}
	b := &Broker{
		caps:       make(map[string]Capability, len(reach.Fetch)),
		provider:   cfg.Provider,
		maxFetches: cfg.MaxFetches,
		inflight:   newBudget(cfg.MaxInflightBytes),
	}
	if b.maxFetches <= 0 {
		b.maxFetches = DefaultMaxFetches
	}
	for _, c := range reach.Fetch {
		c.Node = nil
		b.caps[c.Domain] = c
	}
	b.allow = reach.Allowlist()
	var secrets []scrub.Secret
	for _, c := range reach.Credentials {
		c.Node = nil
		cr := credential{Credential: c, header: c.Header}
		if c.Broken != "" {
			cr.problem, cr.reason = c.Broken, ReasonCredential
		}
		if c.Name != "" {
			res := capability.SecretResolution{Name: c.Name, Source: capability.SecretRefused, Reason: "the run has no secret store"}
			if cfg.Secrets != nil {
				res = cfg.Secrets.Resolve(c.Name)
			}
			b.resolved = append(b.resolved, res)
			cr.value, cr.found = res.Value(), res.Found()
			cr.refusal = res.Reason
		}
		if cr.found {
			secrets = append(secrets, scrub.Secret{Name: c.Name, Value: cr.value})
			if cr.problem == "" && !capability.ValidHeaderValue(cr.value) {
				cr.problem, cr.reason = fmt.Sprintf("the secret of credential %q holds a control character and cannot go into a header", c.Name), ReasonBadSecret
			}
		} else if cr.problem == "" {
			cr.problem, cr.reason = cr.refusal, ReasonNoSecret
			if cr.problem == "" {
				cr.problem = fmt.Sprintf("credential %q has no dev secret", c.Name)
			}
		}
		b.creds = append(b.creds, cr)
	}
	b.scrub = scrub.New(secrets...)
	return b
}

// SecretAudit is how the run's dev secrets were resolved: one entry per
// credential (name, source "fixtures" | "env" | "refused", the variable,
// why refused), never a value.
func (b *Broker) SecretAudit() []capability.SecretResolution {
	out := make([]capability.SecretResolution, len(b.resolved))
	for i, r := range b.resolved {
		out[i] = capability.SecretResolution{Name: r.Name, Source: r.Source, Env: r.Env, Reason: r.Reason}
	}
	return out
}

// Redact replaces every secret value known to the broker (the secrets of
// its credentials, injected or not) with "••••(<name>)" (scrub.Marker).
// It finds every form the scrubber recognises (internal/scrub): escaped,
// percent-encoded, base64, hex.
func (b *Broker) Redact(s string) string { return b.scrub.Text(s) }

// RedactBytes is Redact on bytes: p itself when no secret is in it (a
// run's result is not copied twice to be looked at).
func (b *Broker) RedactBytes(p []byte) []byte { return b.scrub.Bytes(p) }

// Audit returns a copy of the audit log, in call order.
func (b *Broker) Audit() []record.FetchEntry {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]record.FetchEntry, len(b.audit))
	// In the order the tool made the calls (parallel calls may reach
	// the broker in another order).
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return b.seqs[idx[i]] < b.seqs[idx[j]] })
	for i, k := range idx {
		out[i] = b.audit[k]
	}
	for i := range out {
		out[i].Credentials = append([]string{}, out[i].Credentials...)
	}
	return out
}

// Stats returns the run's fetch figures.
func (b *Broker) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Stats{Calls: b.calls, Sent: b.sent, Bytes: b.bytes, Dropped: b.dropped}
}

// MaxFetches is the per-run fetch cap in force.
func (b *Broker) MaxFetches() int { return b.maxFetches }

var allowedMethods = map[string]bool{
	"GET": true, "HEAD": true, "POST": true, "PUT": true, "PATCH": true, "DELETE": true, "OPTIONS": true,
}

// Fetch decides, decorates, forwards and records one request. See the
// package documentation for the rules; its phases are in fetch.go. The
// returned error is an *Error.
func (b *Broker) Fetch(ctx context.Context, req Request) (*Response, error) {
	c := b.begin(req)
	if err := c.admit(ctx); err != nil {
		return c.finish(nil, err)
	}
	if err := c.decide(); err != nil {
		return c.finish(nil, err)
	}
	if err := c.credentials(); err != nil {
		return c.finish(nil, err)
	}
	resp, err := c.forward(ctx)
	if err != nil {
		return c.finish(nil, err)
	}
	return c.finish(c.receive(ctx, resp))
}

func tooLarge(url, host string, max int64) *Error {
	return &Error{Reason: ReasonTooLarge, Message: fmt.Sprintf("fetch %s failed: the response body is larger than %d bytes (fetchMaxBytes of %s)", url, max, host)}
}

// safeRoundTrip calls the provider and turns a panic into an error: a
// broken provider must not take the run (or the process) down.
func safeRoundTrip(ctx context.Context, p Provider, req *Request, limits Capability) (resp *Response, src Source, err error) {
	defer func() {
		if v := recover(); v != nil {
			resp, err = nil, fmt.Errorf("provider failed: %v", v)
		}
	}()
	return p.RoundTrip(ctx, req, limits)
}

// cleanHeader copies the tool's header under canonical keys, drops the
// headers the transport owns and refuses invalid names and values.
func cleanHeader(h http.Header) (http.Header, string) {
	out := make(http.Header, len(h)+1)
	total := 0
	for k, vs := range h {
		if !capability.ValidHeaderName(k) {
			return nil, fmt.Sprintf("header name %q is not valid", checker.Clip(k, 64))
		}
		ck := textproto.CanonicalMIMEHeaderKey(k)
		if capability.ForbiddenHeader(ck) {
			continue
		}
		for _, v := range vs {
			if !capability.ValidHeaderValue(v) {
				return nil, fmt.Sprintf("the value of header %q holds a control character", ck)
			}
			total += len(k) + len(v)
			out[ck] = append(out[ck], v)
		}
	}
	if total > MaxRequestHeaderBytes {
		return nil, fmt.Sprintf("the request headers are %d bytes, more than %d", total, MaxRequestHeaderBytes)
	}
	return out, ""
}
