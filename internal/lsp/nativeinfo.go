package lsp

import (
	"encoding/json"

	"go.lsp.dev/protocol"

	"github.com/plugin-lsp/plugin-lsp/internal/ide"
)

// CommandNativeTool is plugin.nativeTool {dir?, uri?, tool}: the native
// tool's description and inputJsonSchema as its module says
// (ide.NativeInfoOf), for the run panel of an editor that reads only
// plugin.json.
const CommandNativeTool = ide.CommandNativeTool

// nativeTool answers plugin.nativeTool from the plugin's current view (the
// editor's text of the module).
func (s *Server) nativeTool(arguments []protocol.LSPAny) (protocol.LSPAny, error) {
	if len(arguments) != 1 {
		return nil, invalidParams("%s takes one argument {dir?, uri?, tool}", CommandNativeTool)
	}
	var args runToolArgs
	if err := json.Unmarshal(arguments[0], &args); err != nil {
		return nil, invalidParams("%s: %v", CommandNativeTool, err)
	}
	if args.Tool == "" {
		return nil, invalidParams("%s: \"tool\" is required", CommandNativeTool)
	}
	ps, err := s.pluginOf(args)
	if err != nil {
		return nil, err
	}
	vw := s.current(ps)
	if vw == nil || vw.plugin == nil {
		return nil, rpcError(ide.NoPlugin(ps.dir))
	}
	info, ok := ide.NativeInfoOf(vw.plugin, args.Tool)
	if !ok {
		return nil, rpcError(ide.NotNative(ps.dir, args.Tool))
	}
	return json.Marshal(info)
}
