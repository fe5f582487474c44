package lsp

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// syncBuffer is a log sink safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// rawSession is a server on one end of a pipe and a client that writes
// raw frames on the other.
type rawSession struct {
	t      *testing.T
	conn   net.Conn
	stream jsonrpc2.Stream
	log    *syncBuffer
	done   chan int
}

func newRawSession(t *testing.T) *rawSession {
	t.Helper()
	a, b := net.Pipe()
	rs := &rawSession{t: t, conn: b, stream: jsonrpc2.NewStream(b), log: &syncBuffer{}, done: make(chan int, 1)}
	srv := New(Options{Log: rs.log, Debounce: -1})
	go func() { rs.done <- srv.Serve(context.Background(), jsonrpc2.NewStream(a)) }()
	t.Cleanup(func() { a.Close(); b.Close() })
	return rs
}

func (rs *rawSession) send(body string) {
	rs.t.Helper()
	_ = rs.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	if _, err := fmt.Fprintf(rs.conn, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		rs.t.Fatalf("write %q: %v", body, err)
	}
}

// response reads the next message, which must be a response.
func (rs *rawSession) response() *jsonrpc2.Response {
	rs.t.Helper()
	_ = rs.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	msg, _, err := rs.stream.Read(context.Background())
	if err != nil {
		rs.t.Fatalf("read: %v (server log: %s)", err, rs.log.String())
	}
	r, ok := msg.(*jsonrpc2.Response)
	if !ok {
		rs.t.Fatalf("got %T, want a response", msg)
	}
	return r
}

func (rs *rawSession) exitCode() int {
	rs.t.Helper()
	select {
	case c := <-rs.done:
		return c
	case <-time.After(5 * time.Second):
		rs.t.Fatal("the server did not stop")
		return 0
	}
}

// Each class of malformed message gets its JSON-RPC error reply and the
// server reads on: a well-formed request after each is answered.
func TestMalformedMessagesAreAnsweredAndSurvived(t *testing.T) {
	cases := []struct {
		name, body string
		code       jsonrpc2.Code
		id         jsonrpc2.ID
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":1,"method":`, jsonrpc2.ParseError, jsonrpc2.ID{}},
		{"not JSON at all", `Content-Type: oops`, jsonrpc2.ParseError, jsonrpc2.ID{}},
		{"bare number", `42`, jsonrpc2.InvalidRequest, jsonrpc2.ID{}},
		{"bare string", `"initialize"`, jsonrpc2.InvalidRequest, jsonrpc2.ID{}},
		{"null", `null`, jsonrpc2.InvalidRequest, jsonrpc2.ID{}},
		{"missing jsonrpc", `{"id":7,"method":"initialize","params":{}}`, jsonrpc2.InvalidRequest, jsonrpc2.NewNumberID(7)},
		{"wrong version", `{"jsonrpc":"1.0","id":"x","method":"initialize","params":{}}`, jsonrpc2.InvalidRequest, jsonrpc2.NewStringID("x")},
		{"object id", `{"jsonrpc":"2.0","id":{"n":1},"method":"initialize","params":{}}`, jsonrpc2.InvalidRequest, jsonrpc2.ID{}},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"initialize","params":{}}`, jsonrpc2.InvalidRequest, jsonrpc2.ID{}},
		{"method not a string", `{"jsonrpc":"2.0","id":3,"method":12}`, jsonrpc2.InvalidRequest, jsonrpc2.NewNumberID(3)},
		{"method and result", `{"jsonrpc":"2.0","id":4,"method":"initialize","result":{}}`, jsonrpc2.InvalidRequest, jsonrpc2.NewNumberID(4)},
		{"batch", `[{"jsonrpc":"2.0","id":5,"method":"initialize","params":{}}]`, jsonrpc2.InvalidRequest, jsonrpc2.ID{}},
		{"empty batch", `[]`, jsonrpc2.InvalidRequest, jsonrpc2.ID{}},
		{"no method, no result", `{"jsonrpc":"2.0","id":6}`, jsonrpc2.InvalidRequest, jsonrpc2.NewNumberID(6)},
	}
	rs := newRawSession(t)
	for i, c := range cases {
		rs.send(c.body)
		r := rs.response()
		if rpcCode(r.Err()) != c.code {
			t.Errorf("%s: reply %v, want code %d", c.name, r.Err(), c.code)
		}
		if r.ID() != c.id {
			t.Errorf("%s: reply to id %v, want %v", c.name, r.ID(), c.id)
		}
		// The server still reads: a request sent next is answered (before
		// initialize, with the not-initialized error: an answer all the same).
		id := int64(100 + i)
		rs.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{}}`, id))
		if r := rs.response(); r.ID() != jsonrpc2.NewNumberID(id) {
			t.Fatalf("%s: the next request got no answer (reply to %v)", c.name, r.ID())
		}
	}
	// A malformed response is dropped (no reply to a reply), and logged.
	rs.send(`{"id":9,"result":{}}`)
	rs.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	if r := rs.response(); r.ID() != jsonrpc2.NewNumberID(1) || r.Err() != nil {
		t.Fatalf("initialize after the bad traffic: id %v, err %v", r.ID(), r.Err())
	}
	log := rs.log.String()
	if n := strings.Count(log, "rejected a message"); n != len(cases)+1 {
		t.Errorf("%d rejections logged, want %d:\n%s", n, len(cases)+1, log)
	}
	rs.conn.Close()
	if code := rs.exitCode(); code != 1 {
		t.Errorf("exit code %d after EOF without shutdown, want 1", code)
	}
}

// Only a broken frame (or the end of the input) stops the reading, and the
// log says which.
func TestBrokenFrameEndsTheSessionWithAnHonestLog(t *testing.T) {
	for _, c := range []struct{ name, raw, want string }{
		{"bad content length", "Content-Length: banana\r\n\r\n{}", "broken frame"},
		{"no content length", "Content-Type: application/json\r\n\r\n{}", "broken frame"},
		{"header without colon", "hello\r\n\r\n", "broken frame"},
		{"truncated body", "Content-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\"", "in the middle of a message"},
		{"end of input", "", "end of input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs := newRawSession(t)
			rs.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
			rs.response()
			_ = rs.conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if _, err := rs.conn.Write([]byte(c.raw)); err != nil {
				t.Fatal(err)
			}
			if c.want != "broken frame" {
				rs.conn.Close()
			}
			if code := rs.exitCode(); code != 1 {
				t.Errorf("exit code %d, want 1", code)
			}
			if log := rs.log.String(); !strings.Contains(log, c.want) || !strings.Contains(log, "without shutdown and exit") {
				t.Errorf("log %q does not say %q", log, c.want)
			}
		})
	}
}
