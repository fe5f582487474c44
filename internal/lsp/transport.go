package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// guardedStream is the server's side of the wire: the library's framing
// (jsonrpc2.NewStream) with a reader that survives bad messages.
//
// jsonrpc2 ends the connection on the first body it cannot decode, and it
// answers JSON-RPC batches, which LSP does not have. guardedStream reads
// raw frames (the framer's ReadFrame) and decodes each one with
// jsonrpc2.DecodeMessage itself; a body that does not decode gets the
// JSON-RPC error reply (-32700 for text that is not JSON, -32600 for JSON
// that is not a request: a bare value, a batch, a missing or wrong
// "jsonrpc", an id that is neither a string nor a number) and the next
// frame is read. Only a broken frame (a missing or bad Content-Length, a
// truncated body) or the end of the input stops the reading; end records
// which, for the log line the server writes when the session ends.
//
// Because guardedStream offers Read and not the library's raw-frame
// extension, the connection never takes its batch path.
type guardedStream struct {
	inner  jsonrpc2.Stream
	frames frameReader
	logf   func(format string, args ...any)

	mu  sync.Mutex
	end error // (mu) what stopped the reading
}

// frameReader is what the library's framers offer besides Read: the body
// of the next frame, undecoded.
type frameReader interface {
	ReadFrame(ctx context.Context) ([]byte, int64, error)
}

// guardStream wraps inner; a stream without raw frames is returned as is.
func guardStream(inner jsonrpc2.Stream, logf func(string, ...any)) jsonrpc2.Stream {
	fr, ok := inner.(frameReader)
	if !ok {
		return inner
	}
	return &guardedStream{inner: inner, frames: fr, logf: logf}
}

func (s *guardedStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		body, n, err := s.frames.ReadFrame(ctx)
		if err != nil {
			s.mu.Lock()
			s.end = err
			s.mu.Unlock()
			return nil, 0, err
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err == nil {
			return msg, n, nil
		}
		if err := s.reject(ctx, body, err); err != nil {
			return nil, 0, err
		}
	}
}

func (s *guardedStream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	return s.inner.Write(ctx, msg)
}

func (s *guardedStream) Close() error { return s.inner.Close() }

// ended returns what stopped the reading, nil while it goes on.
func (s *guardedStream) ended() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.end
}

// reject answers a body that did not decode and logs it. It returns an
// error only when the reply cannot be written (the connection is gone).
func (s *guardedStream) reject(ctx context.Context, body []byte, decodeErr error) error {
	rpcErr, id, answer := classifyBad(body, decodeErr)
	if s.logf != nil {
		s.logf("rejected a message (%d %s): %s", rpcErr.Code, rpcErr.Message, preview(body))
	}
	if !answer {
		return nil
	}
	if _, err := s.inner.Write(ctx, jsonrpc2.NewResponse(id, nil, rpcErr)); err != nil {
		return err
	}
	return nil
}

// classifyBad says why a body is not a message: the error to answer with,
// the id to answer to (null unless the body is an object with a valid
// id), and whether to answer at all (a malformed response gets none: a
// reply to a reply could loop between two peers).
func classifyBad(body []byte, decodeErr error) (*jsonrpc2.Error, jsonrpc2.ID, bool) {
	trimmed := bytes.TrimSpace(body)
	if !json.Valid(trimmed) {
		return jsonrpc2.NewError(jsonrpc2.ParseError, "parse error: the message is not JSON"), jsonrpc2.ID{}, true
	}
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "invalid request: batches are not supported (LSP has none)"), jsonrpc2.ID{}, true
	case len(trimmed) == 0 || trimmed[0] != '{':
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "invalid request: the message is not a JSON object"), jsonrpc2.ID{}, true
	}
	var m map[string]json.RawMessage
	_ = json.Unmarshal(trimmed, &m)
	var version string
	_, hasMethod := m["method"]
	_, hasResult := m["result"]
	_, hasError := m["error"]
	idRaw, hasID := m["id"]
	id, idOK := jsonID(idRaw)
	reply := func(msg string) (*jsonrpc2.Error, jsonrpc2.ID, bool) {
		if !idOK {
			id = jsonrpc2.ID{}
		}
		return jsonrpc2.NewError(jsonrpc2.InvalidRequest, "invalid request: "+msg), id, hasMethod || !hasResult && !hasError
	}
	switch {
	case json.Unmarshal(m["jsonrpc"], &version) != nil || version != "2.0":
		return reply(`"jsonrpc" must be "2.0"`)
	case hasID && !idOK:
		return reply(`"id" must be a string, an integer or null`)
	case hasMethod && (hasResult || hasError):
		return reply(`a message has either "method" or "result"/"error"`)
	case hasMethod:
		var method string
		if json.Unmarshal(m["method"], &method) != nil {
			return reply(`"method" must be a string`)
		}
		return reply("the message is not a valid request")
	case !hasResult && !hasError:
		return reply(`the message has no "method"`)
	}
	return reply("malformed response")
}

// jsonID decodes a JSON-RPC id: a string or an integer (null and absent
// are valid too, and give the empty ID).
func jsonID(raw json.RawMessage) (jsonrpc2.ID, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return jsonrpc2.ID{}, true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return jsonrpc2.NewStringID(s), true
	}
	var n int64
	if json.Unmarshal(raw, &n) == nil {
		return jsonrpc2.NewNumberID(n), true
	}
	return jsonrpc2.ID{}, false
}

// preview is the start of a rejected body, for the log.
func preview(body []byte) string {
	const max = 80
	if len(body) > max {
		return fmt.Sprintf("%q… (%d bytes)", body[:max], len(body))
	}
	return fmt.Sprintf("%q", body)
}

// endReason is the log line for why the reading stopped.
func endReason(err error) string {
	switch {
	case err == nil:
		return "the connection closed"
	case errors.Is(err, io.EOF):
		return "the client closed its end of the connection (end of input)"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the input ended in the middle of a message"
	case errors.Is(err, jsonrpc2.ErrInvalidHeader):
		return "a broken frame: the message header is invalid (a missing or bad Content-Length); the stream cannot be resynchronized"
	}
	return fmt.Sprintf("reading failed: %v", err)
}
