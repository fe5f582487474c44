package broker_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker/capability"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

// recordingProvider answers every request with 200 "ok" and remembers
// what it was asked; it proves what reached the provider.
type recordingProvider struct {
	mu   sync.Mutex
	reqs []broker.Request
	// respond, when set, builds the response.
	respond func(req *broker.Request) (*broker.Response, error)
}

func (p *recordingProvider) RoundTrip(ctx context.Context, req *broker.Request, limits broker.Capability) (*broker.Response, broker.Source, error) {
	p.mu.Lock()
	p.reqs = append(p.reqs, *req)
	p.mu.Unlock()
	if p.respond != nil {
		r, err := p.respond(req)
		return r, broker.SourceFixture, err
	}
	return &broker.Response{Status: 200, Header: http.Header{}, Body: []byte("ok"), URL: req.URL}, broker.SourceFixture, nil
}

func (p *recordingProvider) calls() []broker.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]broker.Request(nil), p.reqs...)
}

// testHost is covered by the certificate of httptest.NewTLSServer
// (127.0.0.1, ::1, example.com, *.example.com).
const testHost = "api.example.com"

// tlsServer is a loopback TLS server reachable as testHost through a
// dialer that counts dials and refuses every other address.
type tlsServer struct {
	srv   *httptest.Server
	dials atomic.Int64
	// dialed records every address asked of the dialer.
	mu     sync.Mutex
	dialed []string
}

func newTLSServer(t *testing.T, h http.Handler) *tlsServer {
	t.Helper()
	s := &tlsServer{srv: httptest.NewTLSServer(h)}
	t.Cleanup(s.srv.Close)
	return s
}

func (s *tlsServer) pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(s.srv.Certificate())
	return p
}

func (s *tlsServer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	s.dials.Add(1)
	s.mu.Lock()
	s.dialed = append(s.dialed, addr)
	s.mu.Unlock()
	host, port, err := net.SplitHostPort(addr)
	if err != nil || !strings.EqualFold(host, testHost) || port != "443" {
		return nil, fmt.Errorf("test dialer: %s is not the test server", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", s.srv.Listener.Addr().String())
}

func (s *tlsServer) provider() broker.Provider {
	return broker.NewNetworkProvider(broker.NetworkOptions{DialContext: s.dial, RootCAs: s.pool()})
}

// mustJSON marshals v for secret scans.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// brokerErr asserts err is a *broker.Error and returns it.
func brokerErr(t *testing.T, err error) *broker.Error {
	t.Helper()
	be, ok := err.(*broker.Error)
	if !ok {
		t.Fatalf("error %v (%T) is not a *broker.Error", err, err)
	}
	return be
}

// mapSecrets are a test's dev secrets, resolved as fixtures.json's are
// (through the one resolver, capability.DevSecrets).
type mapSecrets map[string]string

func (m mapSecrets) Resolve(name string) capability.SecretResolution {
	return capability.DevSecrets{Plugin: "test", Fixtures: m}.Resolve(name)
}
