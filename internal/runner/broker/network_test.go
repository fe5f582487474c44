package broker_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/broker"
)

func netBroker(s *tlsServer, c broker.Capability, creds ...broker.Credential) *broker.Broker {
	c.Domain = testHost
	return broker.New(broker.Config{
		Fetch:       []broker.Capability{c},
		Credentials: creds,
		Secrets:     mapSecrets{"k": "net-secret-123"},
		Provider:    s.provider(),
	})
}

// The request arrives as the tool wrote it, plus credentials; the
// response comes back whole.
func TestNetworkRoundTrip(t *testing.T) {
	var got struct {
		method, path, host, auth, ctype, body string
		xTool                                 []string
	}
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.method, got.path, got.host, got.auth, got.ctype, got.body = r.Method, r.URL.RequestURI(), r.Host, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), string(b)
		got.xTool = r.Header.Values("X-Tool")
		w.Header().Set("X-Answer", "42")
		w.WriteHeader(201)
		io.WriteString(w, `{"created":true}`)
	}))
	b := netBroker(s, broker.Capability{}, broker.Credential{Name: "k", Header: "Authorization", Format: "Token {{secret}}"})
	resp, err := b.Fetch(context.Background(), broker.Request{
		Method: "post", URL: "https://" + testHost + "/v1/items?x=1",
		Header: http.Header{"Content-Type": {"application/json"}, "X-Tool": {"a", "b"}, "Host": {"evil.com"}, "Authorization": {"mine"}},
		Body:   []byte(`{"name":"n"}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != 201 || string(resp.Body) != `{"created":true}` || resp.Header.Get("X-Answer") != "42" || resp.URL != "https://"+testHost+"/v1/items?x=1" {
		t.Errorf("response %+v", resp)
	}
	if got.method != "POST" || got.path != "/v1/items?x=1" || got.host != testHost || got.auth != "Token net-secret-123" ||
		got.ctype != "application/json" || got.body != `{"name":"n"}` || strings.Join(got.xTool, ",") != "a,b" {
		t.Errorf("server saw %+v", got)
	}
	e := b.Audit()[0]
	if e.Method != "POST" || e.Status != 201 || e.Bytes != 16 || e.Source != "network" || e.Host != testHost ||
		e.MaxBytes != checker.DefaultFetchMaxBytes || e.TimeoutMs != checker.DefaultFetchTimeoutMs || e.Refused != "" || e.Error != "" ||
		len(e.Credentials) != 1 || e.Credentials[0] != "k" {
		t.Errorf("audit %+v", e)
	}
	if st := b.Stats(); st.Calls != 1 || st.Sent != 1 || st.Bytes != 16 {
		t.Errorf("stats %+v", st)
	}
}

// Redirects come back as they are, Location included; the target is
// never requested (even an allowed one).
func TestRedirectsNotFollowed(t *testing.T) {
	var targetHits atomic.Int64
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/target":
			targetHits.Add(1)
			io.WriteString(w, "target")
		case "/301":
			http.Redirect(w, r, "https://169.254.169.254/latest/meta-data/", 301)
		case "/302":
			http.Redirect(w, r, "/target", 302)
		case "/303":
			http.Redirect(w, r, "/target", 303)
		case "/307":
			http.Redirect(w, r, "https://"+testHost+"/target", 307)
		case "/308":
			http.Redirect(w, r, "http://evil.com/", 308)
		}
	}))
	b := netBroker(s, broker.Capability{})
	want := map[string]string{"301": "https://169.254.169.254/latest/meta-data/", "302": "/target", "303": "/target", "307": "https://" + testHost + "/target", "308": "http://evil.com/"}
	for _, code := range []string{"301", "302", "303", "307", "308"} {
		resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/" + code})
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		if got := resp.Header.Get("Location"); resp.Status != atoi(code) || got != want[code] {
			t.Errorf("%s: status %d Location %q, want %s %q", code, resp.Status, got, code, want[code])
		}
	}
	if n := targetHits.Load(); n != 0 {
		t.Fatalf("a redirect was followed %d times", n)
	}
	if n := s.dials.Load(); n > 5 {
		t.Fatalf("%d dials for 5 requests", n)
	}
	for _, a := range s.dialed {
		if a != testHost+":443" {
			t.Fatalf("dialed %s", a)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// Over the cap is an error, never a cut; exactly the cap is fine.
func TestNetworkSizeCap(t *testing.T) {
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/exact":
			w.Write(bytes.Repeat([]byte("a"), 1024))
		case "/over":
			w.Write(bytes.Repeat([]byte("a"), 1025))
		case "/huge": // no Content-Length, streamed
			for i := 0; i < 64; i++ {
				w.Write(bytes.Repeat([]byte("b"), 64<<10))
			}
		case "/gzipbomb": // 8 MiB of zeros in a few KiB of gzip
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zeros := make([]byte, 1<<20)
			for i := 0; i < 8; i++ {
				zw.Write(zeros)
			}
			zw.Close()
		}
	}))
	b := netBroker(s, broker.Capability{MaxBytes: 1024})
	resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/exact"})
	if err != nil || len(resp.Body) != 1024 {
		t.Fatalf("exact cap: %v", err)
	}
	for _, path := range []string{"/over", "/huge", "/gzipbomb"} {
		resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + path})
		if resp != nil {
			t.Fatalf("%s: got a %d-byte body, want an error", path, len(resp.Body))
		}
		be := brokerErr(t, err)
		if be.Reason != "too-large" || be.Refused || !strings.Contains(be.Message, "larger than 1024 bytes (fetchMaxBytes of "+testHost+")") {
			t.Errorf("%s: %q %q", path, be.Reason, be.Message)
		}
	}
	a := b.Audit()
	for i, e := range a[1:] {
		if e.Error == "" || e.Refused != "" || e.MaxBytes != 1024 {
			t.Errorf("audit[%d] %+v", i+1, e)
		}
	}
}

// The broker enforces the cap even on a provider that ignores it.
func TestSizeCapOnCarelessProvider(t *testing.T) {
	p := &recordingProvider{respond: func(req *broker.Request) (*broker.Response, error) {
		return &broker.Response{Status: 200, Body: make([]byte, 11)}, nil
	}}
	b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org", MaxBytes: 10}}, Provider: p})
	_, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"})
	if be := brokerErr(t, err); be.Reason != "too-large" {
		t.Fatalf("%v", be)
	}
	if e := b.Audit()[0]; e.Status != 200 || e.Bytes != 11 || e.Error == "" {
		t.Errorf("audit %+v", e)
	}
}

// A slow server (headers or body) is cut by fetchTimeoutMs; the end of the
// run cancels an in-flight fetch.
func TestNetworkTimeouts(t *testing.T) {
	release := make(chan struct{})
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slowbody" {
			w.Write([]byte("first"))
			w.(http.Flusher).Flush()
		}
		// Never finish on its own (not even when the client goes away):
		// only the broker's timer can end these fetches.
		<-release
	}))
	t.Cleanup(func() { close(release) }) // runs before the server's Close, which waits for handlers
	b := netBroker(s, broker.Capability{TimeoutMs: 50})
	for _, path := range []string{"/slowheaders", "/slowbody"} {
		_, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + path})
		be := brokerErr(t, err)
		if be.Reason != "timeout" || !strings.Contains(be.Message, "timed out after 50 ms (fetchTimeoutMs of "+testHost+")") {
			t.Errorf("%s: %q %q", path, be.Reason, be.Message)
		}
	}
	b2 := netBroker(s, broker.Capability{TimeoutMs: 60_000})
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for s.dials.Load() < 3 { // wait until the third request is on its way
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	_, err := b2.Fetch(ctx, broker.Request{URL: "https://" + testHost + "/slowheaders"})
	if be := brokerErr(t, err); be.Reason != "cancelled" || !strings.Contains(be.Message, "the run ended") {
		t.Errorf("cancelled run: %q %q", be.Reason, be.Message)
	}
	// A run already over sends nothing.
	dials := s.dials.Load()
	_, err = b2.Fetch(ctx, broker.Request{URL: "https://" + testHost + "/slowheaders"})
	if be := brokerErr(t, err); be.Reason != "cancelled" {
		t.Errorf("after the run: %q", be.Reason)
	}
	if s.dials.Load() != dials {
		t.Error("a fetch after the end of the run dialed")
	}
}

// Caps are clamped to the ceilings and default when zero.
func TestCapsEffective(t *testing.T) {
	p := &recordingProvider{}
	b := broker.New(broker.Config{Fetch: []broker.Capability{
		{Domain: "big.org", MaxBytes: 1 << 40, TimeoutMs: 1 << 40},
		{Domain: "zero.org"},
		{Domain: "neg.org", MaxBytes: -5, TimeoutMs: -5},
		{Domain: "set.org", MaxBytes: 4096, TimeoutMs: 5000},
		{Domain: "SET.org", MaxBytes: 1, TimeoutMs: 1}, // duplicate: the first wins
	}, Provider: p})
	want := map[string][2]int64{
		"big.org":  {checker.MaxFetchMaxBytes, checker.MaxFetchTimeoutMs},
		"zero.org": {checker.DefaultFetchMaxBytes, checker.DefaultFetchTimeoutMs},
		"neg.org":  {checker.DefaultFetchMaxBytes, checker.DefaultFetchTimeoutMs},
		"set.org":  {4096, 5000},
	}
	for _, h := range []string{"big.org", "zero.org", "neg.org", "set.org"} {
		if _, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + h + "/"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range b.Audit() {
		if w := want[e.Host]; e.MaxBytes != w[0] || e.TimeoutMs != w[1] {
			t.Errorf("%s: caps %d/%d, want %d/%d", e.Host, e.MaxBytes, e.TimeoutMs, w[0], w[1])
		}
	}
}

// Promise.all: fetches through one broker run at the same time. The
// handler waits until five requests are inside it (or 5 s pass), so a
// serializing broker shows up as a max concurrency of 1, not as a slow test.
func TestParallelFetches(t *testing.T) {
	var inFlight, maxInFlight atomic.Int64
	arrived := make(chan struct{}, 5)
	all := make(chan struct{})
	var once sync.Once
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for {
			m := maxInFlight.Load()
			if n <= m || maxInFlight.CompareAndSwap(m, n) {
				break
			}
		}
		arrived <- struct{}{}
		if len(arrived) == 5 {
			once.Do(func() { close(all) })
		}
		select {
		case <-all:
		case <-time.After(5 * time.Second):
		}
		time.Sleep(100 * time.Millisecond)
		inFlight.Add(-1)
		io.WriteString(w, r.URL.Path)
	}))
	b := netBroker(s, broker.Capability{})
	var wg sync.WaitGroup
	errs := make([]error, 5)
	bodies := make([]string, 5)
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/p" + string(rune('0'+i))})
			errs[i] = err
			if resp != nil {
				bodies[i] = string(resp.Body)
			}
		}()
	}
	wg.Wait()
	for i := range errs {
		if errs[i] != nil || bodies[i] != "/p"+string(rune('0'+i)) {
			t.Errorf("fetch %d: %q %v", i, bodies[i], errs[i])
		}
	}
	if m := maxInFlight.Load(); m != 5 {
		t.Fatalf("at most %d fetches were in flight together, want 5", m)
	}
	if a := b.Audit(); len(a) != 5 {
		t.Fatalf("audit has %d entries", len(a))
	}
}

// The audit log is in call order even when calls finish out of order.
func TestAuditCallOrder(t *testing.T) {
	gate := make(chan struct{})
	started := make(chan string, 2)
	p := &recordingProvider{respond: func(req *broker.Request) (*broker.Response, error) {
		started <- req.URL
		if strings.HasSuffix(req.URL, "/slow") {
			<-gate
		}
		return &broker.Response{Status: 200, URL: req.URL}, nil
	}}
	b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Provider: p})
	done := make(chan struct{})
	go func() {
		b.Fetch(context.Background(), broker.Request{URL: "https://a.org/slow"})
		close(done)
	}()
	<-started
	if _, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/fast"}); err != nil {
		t.Fatal(err)
	}
	<-started
	close(gate)
	<-done
	a := b.Audit()
	if len(a) != 2 || a[0].URL != "https://a.org/slow" || a[1].URL != "https://a.org/fast" || a[0].Status != 200 || a[1].Status != 200 {
		t.Fatalf("audit %+v", a)
	}
}

// No proxy from the environment: the request goes where the broker
// allowed, not to HTTPS_PROXY.
func TestNetworkIgnoresProxyEnv(t *testing.T) {
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "direct") }))
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:9")
	t.Setenv("https_proxy", "http://127.0.0.1:9")
	b := netBroker(s, broker.Capability{})
	resp, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/"})
	if err != nil || string(resp.Body) != "direct" {
		t.Fatalf("%v %v", resp, err)
	}
	for _, a := range s.dialed {
		if a != testHost+":443" {
			t.Fatalf("dialed %s", a)
		}
	}
}

// A server whose certificate the roots do not trust is a network error.
func TestNetworkUntrustedCertificate(t *testing.T) {
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") }))
	b := broker.New(broker.Config{
		Fetch:    []broker.Capability{{Domain: testHost}},
		Provider: broker.NewNetworkProvider(broker.NetworkOptions{DialContext: s.dial}),
	})
	_, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/"})
	be := brokerErr(t, err)
	if be.Reason != "network" || !strings.Contains(be.Message, "certificate") {
		t.Fatalf("%q %q", be.Reason, be.Message)
	}
}

// A provider that panics or breaks its contract is an error, not a crash.
func TestBrokenProviders(t *testing.T) {
	cases := map[string]func(*broker.Request) (*broker.Response, error){
		"panic":      func(*broker.Request) (*broker.Response, error) { panic("boom") },
		"nil":        func(*broker.Request) (*broker.Response, error) { return nil, nil },
		"bad status": func(*broker.Request) (*broker.Response, error) { return &broker.Response{Status: 42}, nil },
	}
	for name, f := range cases {
		b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}, Provider: &recordingProvider{respond: f}})
		_, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"})
		if be := brokerErr(t, err); be.Refused || be.Message == "" {
			t.Errorf("%s: %+v", name, be)
		}
	}
	b := broker.New(broker.Config{Fetch: []broker.Capability{{Domain: "a.org"}}})
	_, err := b.Fetch(context.Background(), broker.Request{URL: "https://a.org/"})
	if be := brokerErr(t, err); be.Reason != "no-provider" {
		t.Errorf("no provider: %+v", be)
	}
}

// No goroutine outlives the fetches: connections are not kept alive.
func TestNetworkNoGoroutineLeak(t *testing.T) {
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") }))
	settle := func(limit int) int {
		n := runtime.NumGoroutine()
		for i := 0; i < 500 && n > limit; i++ {
			time.Sleep(10 * time.Millisecond)
			n = runtime.NumGoroutine()
		}
		return n
	}
	base := runtime.NumGoroutine()
	for run := 0; run < 20; run++ {
		b := netBroker(s, broker.Capability{}) // a fresh provider per run, as the runner does
		for i := 0; i < 3; i++ {
			if _, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if n := settle(base); n > base {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after 60 fetches, %d before:\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}

// Hostile servers: a header flood, and a peer that accepts the connection
// but never speaks TLS.
func TestNetworkHostileServers(t *testing.T) {
	s := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Flood", strings.Repeat("a", 200<<10))
		io.WriteString(w, "x")
	}))
	b := netBroker(s, broker.Capability{})
	_, err := b.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/"})
	if be := brokerErr(t, err); be.Reason != "network" || !strings.Contains(be.Message, "header") {
		t.Errorf("header flood: %q %q", be.Reason, be.Message)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c) // accept, then say nothing
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	mute := broker.New(broker.Config{
		Fetch: []broker.Capability{{Domain: testHost, TimeoutMs: 50}},
		Provider: broker.NewNetworkProvider(broker.NetworkOptions{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", ln.Addr().String())
		}}),
	})
	_, err = mute.Fetch(context.Background(), broker.Request{URL: "https://" + testHost + "/"})
	if be := brokerErr(t, err); be.Reason != "timeout" {
		t.Errorf("mute server: %q %q", be.Reason, be.Message)
	}
}
