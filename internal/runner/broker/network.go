package broker

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// NetworkOptions configures the network provider. Both fields exist for
// tests (a loopback TLS server): production leaves them zero.
type NetworkOptions struct {
	// DialContext replaces the dialer (e.g. to map an allowlisted host
	// name to a loopback test server).
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
	// RootCAs replaces the system roots.
	RootCAs *x509.CertPool
}

// MaxResponseHeaderBytes bounds a response's headers.
const MaxResponseHeaderBytes = 64 << 10

// NewNetworkProvider returns the "real" provider: net/http over TLS, no
// proxy from the environment, redirects never followed, the body read up
// to the capability's cap (one byte more is an error, never a silent cut).
func NewNetworkProvider(opts NetworkOptions) Provider {
	dial := opts.DialContext
	if dial == nil {
		dial = publicDialer()
	}
	tr := &http.Transport{
		Proxy:             nil, // no ambient HTTPS_PROXY: the request goes where the broker allowed
		DialContext:       dial,
		TLSClientConfig:   &tls.Config{RootCAs: opts.RootCAs, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2: true,
		// One connection per request, closed after it: no idle connection
		// (and no goroutine) outlives the fetch, whatever number of runs
		// the process makes.
		DisableKeepAlives:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		MaxResponseHeaderBytes: MaxResponseHeaderBytes,
		// HTTP/2 buffers a stream's data before anyone reads it, up to its
		// window (4 MiB by default): 32 parallel fetches waiting for the
		// run's budget would hold 128 MiB. 1 MiB each.
		HTTP2: &http.HTTP2Config{MaxReceiveBufferPerStream: 1 << 20, MaxReceiveBufferPerConnection: 1 << 20},
	}
	return &networkProvider{client: &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

type networkProvider struct{ client *http.Client }

func (p *networkProvider) RoundTrip(ctx context.Context, req *Request, limits Capability) (*Response, Source, error) {
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hreq, err := http.NewRequestWithContext(ctx, req.Method, req.URL, body)
	if err != nil {
		return nil, SourceNetwork, err
	}
	if hreq.URL.Scheme != "https" {
		// The broker allows https only; this is a second lock on the door.
		return nil, SourceNetwork, errors.New("only https is allowed")
	}
	for k, vs := range req.Header {
		hreq.Header[k] = append([]string(nil), vs...)
	}
	resp, err := p.client.Do(hreq)
	if err != nil {
		return nil, SourceNetwork, unwrapClientError(err)
	}
	defer resp.Body.Close()
	max := limits.MaxBytes
	if max <= 0 {
		max = checker.DefaultFetchMaxBytes
	}
	if resp.ContentLength > max {
		return nil, SourceNetwork, tooLarge(hreq.URL.Redacted(), hreq.URL.Host, max)
	}
	// Take the body's share of the run's budget before reading it: the
	// announced length, or the cap when none is announced.
	want, size := max, int64(-1)
	if resp.ContentLength >= 0 {
		want, size = resp.ContentLength, resp.ContentLength
	}
	var h *hold
	if req.budget != nil {
		if err := req.budget.reserve(ctx, want); err != nil {
			return nil, SourceNetwork, err
		}
		h = &hold{b: req.budget, n: want}
	}
	if req.scrub != nil {
		if ce := resp.Header.Get("Content-Encoding"); !resp.Uncompressed && ce != "" && !strings.EqualFold(ce, "identity") {
			// A coding nobody asked for (the transport asks for gzip and
			// decodes it): a secret in compressed bytes cannot be found.
			h.release()
			return nil, SourceNetwork, &Error{Reason: ReasonEncoded, Message: fmt.Sprintf("fetch %s failed: the response is %s-encoded, which the broker cannot search for the injected secrets (it asks for gzip and decodes it; the server sent another coding)", hreq.URL.Redacted(), checker.Clip(ce, 32))}
		}
		// The body and headers scrubbed as they are read (internal/scrub): what
		// a provider above this one keeps (run --record) holds no secret.
		data, n, err := readScrubbed(ctx, resp.Body, size, max, req.scrub)
		switch {
		case err != nil:
			h.release()
			return nil, SourceNetwork, fmt.Errorf("reading the response body: %w", unwrapClientError(err))
		case n > max:
			h.release()
			return nil, SourceNetwork, tooLarge(hreq.URL.Redacted(), hreq.URL.Host, max)
		case data == nil && n > 0:
			h.release()
			return nil, SourceNetwork, &Error{Reason: ReasonTooLarge, Message: fmt.Sprintf("fetch %s failed: the response body is larger than %d bytes once its secrets are replaced (fetchMaxBytes of %s)", hreq.URL.Redacted(), max, hreq.URL.Host)}
		}
		h.resize(int64(len(data)))
		return &Response{Status: resp.StatusCode, Header: req.scrub.Header(resp.Header), Body: data, URL: req.URL, hold: h, scrubbed: req.scrub, received: n}, SourceNetwork, nil
	}
	data, err := readBody(ctx, resp.Body, size, max)
	if err != nil {
		h.release()
		return nil, SourceNetwork, fmt.Errorf("reading the response body: %w", unwrapClientError(err))
	}
	if int64(len(data)) > max {
		h.release()
		return nil, SourceNetwork, tooLarge(hreq.URL.Redacted(), hreq.URL.Host, max)
	}
	h.resize(int64(len(data)))
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data, URL: req.URL, hold: h}, SourceNetwork, nil
}

// readBody reads at most max+1 bytes, stopping when ctx ends: into one
// buffer when the length is announced, else in 256 KiB chunks joined once
// at the end (doubling a buffer would allocate twice the body and more).
func readBody(ctx context.Context, r io.Reader, size, max int64) ([]byte, error) {
	if size >= 0 {
		buf := make([]byte, 0, min(size, max)+1)
		for int64(len(buf)) <= max {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)] // longer than announced
			}
			n, err := r.Read(buf[len(buf):min(cap(buf), len(buf)+256<<10)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				return buf, nil
			}
			if err != nil {
				return nil, err
			}
		}
		return buf, nil
	}
	var chunks [][]byte
	total := int64(0)
	for total <= max {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := make([]byte, min(256<<10, max+1-total))
		n, err := io.ReadFull(r, c)
		chunks = append(chunks, c[:n])
		total += int64(n)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	out := make([]byte, 0, total)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return out, nil
}

// unwrapClientError drops net/http's `Get "url": ` wrapper (the broker
// names the URL itself) but keeps context errors recognizable.
func unwrapClientError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

// publicDialer dials what the broker allowed, but refuses to connect a
// host *name* to a loopback, private, link-local or otherwise non-public
// address (checked on the resolved address, so DNS rebinding cannot slip
// past): an allowlisted name must not become a way into the author's
// machine or the cloud metadata service. An IP literal reaches the dialer
// only when it was listed verbatim in capabilities.fetch, so it is dialed
// as it is.
func publicDialer() func(ctx context.Context, network, addr string) (net.Conn, error) {
	plain := &net.Dialer{Timeout: 30 * time.Second}
	guarded := &net.Dialer{Timeout: 30 * time.Second, Control: func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return err
		}
		if !isPublic(ip) {
			return fmt.Errorf("the host name resolves to %s, which is not a public address (list that IP in capabilities.fetch to reach it)", ip)
		}
		return nil
	}}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		if _, err := netip.ParseAddr(host); err == nil {
			return plain.DialContext(ctx, network, addr)
		}
		return guarded.DialContext(ctx, network, addr)
	}
}

// cgnat is 100.64.0.0/10 (shared address space).
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

func isPublic(ip netip.Addr) bool {
	ip = ip.Unmap()
	return ip.IsGlobalUnicast() && !ip.IsPrivate() && !cgnat.Contains(ip) &&
		!ip.IsLoopback() && !ip.IsLinkLocalUnicast() && !ip.IsUnspecified()
}
