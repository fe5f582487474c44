package broker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/fetchurl"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/record"
)

// The phases of Broker.Fetch, in the order it runs them: begin (the audit
// slot, in call order), admit (the run's cap, its end, the URL's size, the
// method), decide (the host against the allowlist, the body's size, the
// tool's headers), credentials (the secrets in scope, host-side), forward
// (the provider, its failures), receive (the response's status, budget,
// size and the scrubber) and finish (the audit entry). A phase that ends
// the call returns the *Error finish records.

// fetchCall is one Fetch in progress.
type fetchCall struct {
	b      *Broker
	req    Request
	start  time.Time
	method string
	e      record.FetchEntry // the audit entry, written back to slot by finish
	slot   int               // index in b.audit; -1 when the call is dropped (over the cap)
	over   bool              // past the run's fetch cap

	target fetchurl.Target // what the allowlist admitted
	limits Capability      // the caps of target's host
	header http.Header     // what is sent: the tool's, cleaned, with credentials
	sentBy map[string]int  // credential header → index in e.Credentials
}

// refused is an *Error that ends the call before any provider is asked.
func refused(reason, format string, args ...any) *Error {
	return &Error{Reason: reason, Message: fmt.Sprintf(format, args...), Refused: true}
}

// begin normalises the method, opens the audit entry and reserves its slot
// first, so that the log stays in call order even when calls finish out of
// order. Source stays empty until a provider is asked: a call the broker
// refused before that consulted neither a fixture nor the network.
func (b *Broker) begin(req Request) *fetchCall {
	c := &fetchCall{b: b, req: req, start: time.Now(), slot: -1}
	c.method = strings.ToUpper(strings.TrimSpace(req.Method))
	if c.method == "" {
		c.method = "GET"
	}
	rawURL := req.URL
	if len(rawURL) > MaxURLBytes {
		rawURL = rawURL[:MaxURLBytes] + "…"
	}
	c.e = record.FetchEntry{Method: checker.Clip(c.method, 16), URL: b.Redact(rawURL), Credentials: []string{}}
	b.mu.Lock()
	b.calls++
	c.over = b.calls > b.maxFetches
	if !c.over || b.calls == b.maxFetches+1 {
		c.slot = len(b.audit)
		b.audit = append(b.audit, c.e)
		b.seqs = append(b.seqs, req.Seq)
	} else {
		b.dropped++
	}
	b.mu.Unlock()
	return c
}

// admit refuses a call past the run's cap, after the run's end, with a URL
// too long or a method not allowed.
func (c *fetchCall) admit(ctx context.Context) *Error {
	b := c.b
	if c.over {
		return refused(ReasonLimit, "fetch refused: the run already made %d fetches (at most %d per run)", b.maxFetches, b.maxFetches)
	}
	if ctx.Err() != nil {
		return refused(ReasonCancelled, "fetch refused: the run ended (%v)", context.Cause(ctx))
	}
	if len(c.req.URL) > MaxURLBytes {
		return refused(string(fetchurl.BadURL), "fetch refused: the URL is longer than %d bytes", MaxURLBytes)
	}
	if !allowedMethods[c.method] {
		return refused(ReasonBadMethod, "fetch refused: method %q is not one of GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS", c.e.Method)
	}
	return nil
}

// decide makes the one host decision, shared with the checker, and takes
// the caps of the host it admits; then the body's size and the tool's
// headers.
func (c *fetchCall) decide() *Error {
	b, req := c.b, c.req
	c.e.RequestBytes, c.e.RequestPreview = int64(len(req.Body)), b.bodyPreview(req.Body)
	t, r := b.allow.Check(req.URL)
	c.e.Host = t.Host
	if r != nil {
		return refused(string(r.Reason), "fetch refused: %s", r.Message)
	}
	c.target = t
	c.limits = b.caps[t.Host]
	c.e.MaxBytes, c.e.TimeoutMs = c.limits.MaxBytes, c.limits.TimeoutMs
	if len(req.Body) > MaxRequestBodyBytes {
		return refused(ReasonTooLarge, "fetch refused: the request body is %d bytes, more than %d", len(req.Body), MaxRequestBodyBytes)
	}
	header, msg := cleanHeader(req.Header)
	if msg != "" {
		return refused(ReasonBadHeader, "fetch refused: %s", msg)
	}
	c.header = header
	return nil
}

// credentials adds the credentials in scope, resolved host-side. A header
// of the same name set by the tool is overwritten; if two credentials
// share a header, the later one is what is sent.
func (c *fetchCall) credentials() *Error {
	b := c.b
	c.sentBy = map[string]int{}
	for i := range b.creds {
		cr := &b.creds[i]
		if !cr.AppliesTo(c.target.Host) {
			continue
		}
		if cr.problem != "" {
			return refused(cr.reason, "fetch refused: %s", cr.problem)
		}
		c.header[cr.header] = []string{strings.Replace(cr.Format, secretMarker, cr.value, 1)}
		if j, ok := c.sentBy[cr.header]; ok {
			c.e.Credentials = append(c.e.Credentials[:j], c.e.Credentials[j+1:]...)
			for h, k := range c.sentBy {
				if k > j {
					c.sentBy[h] = k - 1
				}
			}
		}
		c.sentBy[cr.header] = len(c.e.Credentials)
		c.e.Credentials = append(c.e.Credentials, cr.Name)
	}
	return nil
}

// forward asks the provider within the host's timeout and names why it
// failed: no fixture, the run's end, the timeout, a broker error, the
// network.
func (c *fetchCall) forward(ctx context.Context) (*Response, *Error) {
	b, limits, u := c.b, c.limits, c.target.URL.Redacted()
	if b.provider == nil {
		return nil, &Error{Reason: ReasonNoProvider, Message: "fetch failed: no provider is configured for this run"}
	}
	c.e.RequestHeaders = b.headerPreview(c.header, c.sentBy, c.e.Credentials)
	out := &Request{Method: c.method, URL: c.req.URL, Header: c.header, Body: c.req.Body, budget: b.inflight, scrub: b.scrub}
	b.mu.Lock()
	b.sent++
	b.mu.Unlock()

	cctx, cancel := context.WithTimeout(ctx, time.Duration(limits.TimeoutMs)*time.Millisecond)
	resp, src, err := safeRoundTrip(cctx, b.provider, out, limits)
	timedOut := cctx.Err() != nil && ctx.Err() == nil
	cancel()
	if src != "" {
		c.e.Source = string(src)
	}
	if err == nil {
		return resp, nil
	}
	var nf *NoFixtureError
	switch {
	case errors.As(err, &nf):
		return nil, &Error{Reason: ReasonNoFixture, Message: nf.Error(), Refused: true}
	case ctx.Err() != nil:
		if cause := context.Cause(ctx); !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
			return nil, &Error{Reason: ReasonCancelled, Message: fmt.Sprintf("fetch %s stopped: %v", u, cause)}
		}
		return nil, &Error{Reason: ReasonCancelled, Message: fmt.Sprintf("fetch %s stopped: the run ended (%v)", u, context.Cause(ctx))}
	case timedOut || errors.Is(err, context.DeadlineExceeded):
		return nil, &Error{Reason: ReasonTimeout, Message: fmt.Sprintf("fetch %s timed out after %d ms (fetchTimeoutMs of %s)", u, limits.TimeoutMs, c.target.Host)}
	}
	var be *Error
	if errors.As(err, &be) {
		return nil, &Error{Reason: be.Reason, Message: be.Message}
	}
	return nil, &Error{Reason: ReasonNetwork, Message: fmt.Sprintf("fetch %s failed: %v", u, err)}
}

// receive checks the provider's response (a valid status, its body within
// the in-flight budget and the host's fetchMaxBytes, the run still on) and
// scrubs it: the tool must never see a secret, even one the server echoes
// back, in a header's value or in its name, escaped or encoded
// (internal/scrub). A response refused here is released.
func (c *fetchCall) receive(ctx context.Context, resp *Response) (*Response, *Error) {
	b, limits, u := c.b, c.limits, c.target.URL.Redacted()
	if resp == nil || resp.Status < 100 || resp.Status > 999 {
		resp.Release()
		return nil, &Error{Reason: ReasonInvalidResp, Message: fmt.Sprintf("fetch %s failed: the provider returned no valid response", u)}
	}
	if resp.hold == nil { // a provider that does not read into the budget (fixtures)
		if err := b.inflight.reserve(ctx, int64(len(resp.Body))); err != nil {
			return nil, &Error{Reason: ReasonCancelled, Message: fmt.Sprintf("fetch %s stopped: %v", u, err)}
		}
		resp.hold = &hold{b: b.inflight, n: int64(len(resp.Body))}
	}
	if ctx.Err() != nil { // the run ended while the body was read
		resp.Release()
		return nil, &Error{Reason: ReasonCancelled, Message: fmt.Sprintf("fetch %s stopped: the run ended (%v)", u, context.Cause(ctx))}
	}
	c.e.Status = resp.Status
	c.e.Bytes = resp.received
	if c.e.Bytes == 0 {
		c.e.Bytes = int64(len(resp.Body))
	}
	b.mu.Lock()
	b.bytes += c.e.Bytes
	b.mu.Unlock()
	if c.e.Bytes > limits.MaxBytes {
		resp.Release()
		return nil, tooLarge(u, c.target.Host, limits.MaxBytes)
	}
	clean, serr := b.scrubResponse(ctx, resp, c.req.URL, u, c.target.Host, limits.MaxBytes)
	if serr != nil {
		resp.Release()
		return nil, serr
	}
	c.e.ResponseHeaders = b.headerPreview(clean.Header, nil, nil)
	return clean, nil
}

// finish writes the call's audit entry (its time, its redacted error) back
// to its slot and returns what Fetch returns.
func (c *fetchCall) finish(resp *Response, err *Error) (*Response, error) {
	b := c.b
	c.e.Ms = float64(time.Since(c.start).Microseconds()) / 1000
	if err != nil {
		err.Message = b.Redact(err.Message)
		c.e.Error = err.Message
		if err.Refused {
			c.e.Refused = err.Reason
		}
	}
	if c.slot >= 0 {
		b.mu.Lock()
		b.audit[c.slot] = c.e
		b.mu.Unlock()
	}
	if err != nil {
		return nil, err
	}
	return resp, nil
}
