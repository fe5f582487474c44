package lsp

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Backpressure: the server holds a bounded amount of work for a client.
//
// jsonrpc2 reads the next message as soon as a request releases itself
// (Async), and a request's answer waits in a blocking write while the
// client does not read. A client that sends and never reads would drive
// the server to one goroutine and one answer per request (30,000
// requests: 486 MiB). So the read loop admits each message first
// (flow.admit), and waits while the outgoing queue or the open requests
// are past their bound: the server stops reading, the client's writes
// block in turn, and reading resumes as soon as the client reads an
// answer. A request for a whole document (document symbols, code lenses,
// inlay hints, pulled diagnostics) is superseded by the next one of the
// same method for the same document: its context is cancelled and it is
// answered ServerCancelled (-32802), so a backlog holds one live request
// per document and method.
const (
	// MaxQueuedWrites is how many messages may wait to be written to the
	// client before the server stops reading.
	MaxQueuedWrites = 16
	// MaxRunningRequests is how many requests may run at once, not
	// counting those waiting for the client's answer to a server request
	// (which only the client can end).
	MaxRunningRequests = 64
	// MaxOpenRequests bounds every open request, waiting ones included.
	MaxOpenRequests = 1024
)

// flow is the server's admission of incoming messages.
type flow struct {
	logf func(format string, args ...any)

	mu       sync.Mutex
	cond     *sync.Cond
	writing  int  // (mu) messages in Write, not yet written
	open     int  // (mu) requests admitted, not yet returned
	awaiting int  // (mu) server requests waiting for the client's answer
	paused   bool // (mu) the read loop waits in admit
	closed   bool // (mu) the connection ended: admit no longer waits

	latest map[string]*pendingRequest // (mu) by supersedeKey
}

// pendingRequest is a request that a newer one may supersede.
type pendingRequest struct {
	cancel     context.CancelFunc
	superseded atomic.Bool
}

func newFlow(logf func(string, ...any)) *flow {
	f := &flow{logf: logf, latest: map[string]*pendingRequest{}}
	f.cond = sync.NewCond(&f.mu)
	return f
}

// full reports whether a request may not be admitted now. Callers hold
// f.mu.
func (f *flow) full(isCall bool) bool {
	if f.writing >= MaxQueuedWrites {
		return true
	}
	return isCall && (f.open-f.awaiting >= MaxRunningRequests || f.open >= MaxOpenRequests)
}

// admit is called on the read loop before a message is handled: it waits
// while the queue is full (the server stops reading), then counts a
// request as open until done is called.
func (f *flow) admit(isCall bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	said := ""
	for f.full(isCall) && !f.closed {
		// One line per pause and reason (the wait wakes on every change).
		why := "requests"
		if f.writing >= MaxQueuedWrites {
			why = "writes"
		}
		if why != said {
			said = why
			if why == "writes" {
				f.logf("paused reading: the client reads no answers (%d messages wait to be written, %d requests open); reading again once it reads", f.writing, f.open)
			} else {
				f.logf("paused reading: %d requests open (%d wait for the client's answer)", f.open, f.awaiting)
			}
		}
		f.paused = true
		f.cond.Wait()
	}
	if f.paused {
		f.paused = false
		f.logf("reading again")
	}
	if isCall {
		f.open++
	}
}

// done ends a request admitted by admit.
func (f *flow) done() {
	f.mu.Lock()
	f.open--
	f.mu.Unlock()
	f.cond.Broadcast()
}

// close stops every wait: the connection ended.
func (f *flow) close() {
	f.mu.Lock()
	f.closed = true
	f.mu.Unlock()
	f.cond.Broadcast()
}

func (f *flow) add(n *int, d int) {
	f.mu.Lock()
	*n += d
	f.mu.Unlock()
	f.cond.Broadcast()
}

// supersedable are the requests about a whole document, of which only
// the newest is worth answering.
var supersedable = map[string]bool{
	protocol.MethodTextDocumentDocumentSymbol: true,
	protocol.MethodTextDocumentCodeLens:       true,
	protocol.MethodTextDocumentInlayHint:      true,
	protocol.MethodTextDocumentDiagnostic:     true,
}

var errSuperseded = jsonrpc2.NewError(jsonrpc2.Code(protocol.LSPErrorCodesServerCancelled), "superseded by a newer request of the same method for the same document")

// supersede registers a request of a supersedable method and cancels
// the older one of its method and document. It runs on the read loop, in
// the order the requests came; params are valid only until the request
// is released. It returns the request's context and its entry (nil for
// other methods) and a function to call when it returns.
func (f *flow) supersede(ctx context.Context, method string, params []byte) (context.Context, *pendingRequest, func()) {
	if !supersedable[method] {
		return ctx, nil, func() {}
	}
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if json.Unmarshal(params, &p) != nil || p.TextDocument.URI == "" {
		return ctx, nil, func() {}
	}
	key := method + "\x00" + p.TextDocument.URI
	ctx, cancel := context.WithCancel(ctx)
	me := &pendingRequest{cancel: cancel}
	f.mu.Lock()
	if old := f.latest[key]; old != nil {
		old.superseded.Store(true)
		old.cancel()
	}
	f.latest[key] = me
	f.mu.Unlock()
	return ctx, me, func() {
		f.mu.Lock()
		if f.latest[key] == me {
			delete(f.latest, key)
		}
		f.mu.Unlock()
		cancel()
	}
}

// flowStream counts the messages being written (the outgoing queue).
type flowStream struct {
	jsonrpc2.Stream
	f *flow
}

func (s flowStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	s.f.add(&s.f.writing, 1)
	defer s.f.add(&s.f.writing, -1)
	return s.Stream.Write(ctx, msg)
}

// flowConn counts the server's requests waiting for the client's answer:
// the read loop must go on reading while they wait, or the answer would
// never be read.
type flowConn struct {
	jsonrpc2.Conn
	f *flow
}

func (c flowConn) Call(ctx context.Context, method string, params, result any) (jsonrpc2.ID, error) {
	c.f.add(&c.f.awaiting, 1)
	defer c.f.add(&c.f.awaiting, -1)
	return c.Conn.Call(ctx, method, params, result)
}
