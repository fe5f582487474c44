#!/usr/bin/env bash
# The whole test suite, as README.md shows it and .ci/run runs it. It installs
# what the tests need when it is missing: Debian packages (neovim for the
# Neovim client test, chromium for the preview-page test) and npm packages
# (npm ci) for the Node LSP client and the VS Code extension.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

# Debian packages.
missing=()
command -v nvim >/dev/null 2>&1 || missing+=(neovim)
command -v emacs >/dev/null 2>&1 || missing+=(emacs-nox) # the Emacs + eglot e2e test
ls -d /usr/share/emacs/site-lisp/elpa/eglot-* >/dev/null 2>&1 || missing+=(elpa-eglot)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
if ((${#missing[@]})); then
	step "installing ${missing[*]} (apt-get)"
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages, when a lock file is newer than what is installed.
for dir in lsp/e2e/node analysis/report/testdata/sarif-validator analysis/tstypes/testdata/tsc extension; do
	[ -f "$dir/package-lock.json" ] || continue
	if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
		step "npm ci in $dir"
		(cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
	fi
done

step "gofmt and go vet"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './extension/*'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" $unformatted
	exit 1
fi
go vet ./...

step "go test"
go test -count=1 ./...

step "plugin-lsp check and test on the bundled example"
go run ./cmd/plugin-lsp check testdata/example/books
go run ./cmd/plugin-lsp test testdata/example/books

if [ -f extension/scripts/ci.sh ]; then
	step "VS Code extension: build the .vsix and run its tests"
	bash extension/scripts/ci.sh
fi
