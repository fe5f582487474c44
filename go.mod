module github.com/plugin-lsp/plugin-lsp

go 1.26.8

require (
	github.com/dop251/goja v0.0.0-20260917113740-793a2a65c13b
	github.com/evanw/esbuild v0.28.2
	github.com/fastschema/qjs v0.0.6
	github.com/go-json-experiment/json v1.27.2
	github.com/go-sourcemap/sourcemap v2.1.4+incompatible
	github.com/santhosh-tekuri/jsonschema/v5 v5.3.1
	github.com/tetratelabs/wazero v1.9.0
	go.lsp.dev/jsonrpc2 v1.0.1
	go.lsp.dev/protocol v1.0.1
	go.lsp.dev/uri v1.0.1
	golang.org/x/term v0.39.0
	golang.org/x/text v0.36.0
)

require golang.org/x/sys v0.45.0 // indirect
