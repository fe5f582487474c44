#!/usr/bin/env bash
# The whole test suite, as README.md shows it and .ci/run runs it. It
# installs what the tests need when it is missing: Debian packages (neovim
# for the Neovim client test and Lua snippets, chromium for the page tests
# and real VS Code, python3-yaml for the docs' YAML/TOML snippets) and npm
# packages (npm ci, once per directory and only when its lock file changed),
# and code-server (cached outside the repository, see
# extension/e2e/install-code-server.sh). Each step prints its wall time; a
# table of all of them closes the run.
set -euo pipefail
cd "$(dirname "$0")/.."

steps=()
step_name=""
step_start=0
suite_start=$(date +%s)
end_step() {
	if [ -n "$step_name" ]; then
		local s=$(($(date +%s) - step_start))
		steps+=("$(printf '%5d s  %s' "$s" "$step_name")")
		printf '== %s: %d s\n' "$step_name" "$s"
	fi
	step_name=""
}
step() {
	end_step
	step_name="$*"
	step_start=$(date +%s)
	printf '\n== %s\n' "$*"
}
summary() {
	local rc=$?
	end_step
	printf '\n== wall time per step\n'
	printf '%s\n' "${steps[@]}"
	printf '%5d s  total (exit %d)\n' "$(($(date +%s) - suite_start))" "$rc"
}
trap summary EXIT

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"

# Debian packages.
missing=()
command -v nvim >/dev/null 2>&1 || missing+=(neovim)
command -v emacs >/dev/null 2>&1 || missing+=(emacs-nox) # the Emacs + eglot e2e test
ls -d /usr/share/emacs/site-lisp/elpa/eglot-* >/dev/null 2>&1 || missing+=(elpa-eglot)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
/usr/bin/python3 -c 'import tomllib, yaml' >/dev/null 2>&1 || missing+=(python3 python3-yaml)
if ((${#missing[@]})); then
	step "apt-get install ${missing[*]}"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm packages: npm ci once per directory, only when the lock file is newer
# than what is installed.
for dir in internal/lsp/e2e/node internal/authoring/report/testdata/sarif-validator internal/checker/tstypes/testdata/tsc extension; do
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

step "go test ./..."
go test -count=1 ./...

step "plugin-lsp check and test on the bundled example"
go run ./cmd/plugin-lsp check testdata/example/books
go run ./cmd/plugin-lsp test testdata/example/books

step "plugin-lsp test --trust-native on the examples (native tools in Node.js)"
go run ./cmd/plugin-lsp test --trust-native testdata/example/books testdata/example/redis

step "VS Code extension: build, one .vsix per platform + universal"
(cd extension && npm run --silent package)

step "VS Code extension: unit, wiring, package and page tests"
(cd extension && CI=1 npm test --silent)

step "code-server for the real-VS-Code test (cached in ~/.cache/plugin-lsp)"
bash extension/e2e/install-code-server.sh

step "VS Code extension: real VS Code (code-server + Chromium), screenshots in extension/e2e/screenshots"
node --test --test-reporter spec extension/e2e/
