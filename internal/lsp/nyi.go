package lsp

import (
	"context"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// nyi is the fallback for every method the server does not implement.
// protocol.UnimplementedServer answers standard requests with
// MethodNotFound and ignores standard notifications; Request handles the
// non-standard methods the same way, per the spec: an unknown request gets
// MethodNotFound, an unknown notification (including every "$/…" one) is
// ignored.
type nyi struct {
	protocol.UnimplementedServer
	s *Server
}

// Request is called for methods outside the LSP method set.
func (n nyi) Request(ctx context.Context, method string, params any) (any, error) {
	if strings.HasPrefix(method, "$/") {
		// "$/" notifications may be ignored; "$/" requests must fail with
		// MethodNotFound. Either way the error is right: the wrapper drops
		// errors of notifications.
		return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "%s: not supported", method)
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "%s: method not found", method)
}
