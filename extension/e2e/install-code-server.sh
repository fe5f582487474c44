#!/usr/bin/env bash
# Installs code-server (VS Code in a browser, from npm) into a cache directory
# outside the repository, for the real-VS-Code end-to-end test. A second call
# with the same version is a no-op, so reruns on one machine stay fast.
# Works as root and without any download but the npm registry:
#  - code-server's postinstall refuses to run as root under npm without
#    unsafe-perm, and runs nested `npm install`s whose node-gyp builds need
#    `npm_config_yes` and the Node headers (nodedir; Debian/NodeSource ship
#    them in /usr/include/node, so node-gyp never downloads them);
#  - @vscode/ripgrep's postinstall downloads `rg` from GitHub unless its cache
#    ($TMPDIR/vscode-ripgrep-cache-<version>/ripgrep-<tag>-<target>.tar.gz)
#    already holds the archive: we seed it from Debian's ripgrep;
#  - native modules (kerberos, node-pty, argon2, …) are built from source
#    (npm_config_build_from_source: prebuild-install would download from
#    GitHub), kerberos against Debian's libkrb5-dev; argon2 (the password
#    hasher we never use: auth is off) is rebuilt the same way.
# Prints the directory holding bin/code-server on stdout's last line.
set -euo pipefail

version="${CODE_SERVER_VERSION:-4.100.3}"
cache="${PLUGIN_LSP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/plugin-lsp}"
dest="$cache/code-server-$version"
if [ -f "$dest/.done" ]; then
	echo "$dest/node_modules/code-server"
	exit 0
fi

# Debian: rg to seed @vscode/ripgrep, Kerberos headers for the kerberos
# module, a C++ toolchain for node-gyp.
need=()
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
[ -f /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v make >/dev/null 2>&1 || need+=(make)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if ((${#need[@]})); then
	sudo=""
	[ "$(id -u)" = 0 ] || sudo="sudo"
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" != 20 ]; then
	echo "install-code-server: code-server $version needs Node 20 (have $(node --version))" >&2
	exit 1
fi
nodedir=""
for d in "$(dirname "$(dirname "$(readlink -f "$(command -v node)")")")" /usr /usr/local; do
	if [ -f "$d/include/node/node.h" ]; then nodedir="$d"; break; fi
done
if [ -z "$nodedir" ]; then
	echo "install-code-server: no Node headers (include/node/node.h) next to node; node-gyp would download them" >&2
	exit 1
fi

rm -rf "$dest.tmp"
mkdir -p "$dest.tmp/tmp"
export TMPDIR="$dest.tmp/tmp"

# Seed @vscode/ripgrep's download cache with Debian's rg.
case "$(uname -m)" in
x86_64) rgtarget=x86_64-unknown-linux-musl ;;
aarch64 | arm64) rgtarget=aarch64-unknown-linux-musl ;;
*) echo "install-code-server: unsupported machine $(uname -m)" >&2; exit 1 ;;
esac
(cd "$TMPDIR" && npm pack "code-server@$version" --silent >/dev/null && tar xzf "code-server-$version.tgz" package/lib/vscode/npm-shrinkwrap.json)
rgversion=$(node -e 'const s=require(process.argv[1]);console.log(s.packages["node_modules/@vscode/ripgrep"].version)' "$TMPDIR/package/lib/vscode/npm-shrinkwrap.json")
(cd "$TMPDIR" && npm pack "@vscode/ripgrep@$rgversion" --silent >/dev/null && tar xzf "vscode-ripgrep-$rgversion.tgz" package/lib/postinstall.js)
rgtag=$(sed -n "s/^const VERSION = '\(.*\)';/\1/p" "$TMPDIR/package/lib/postinstall.js")
mkdir -p "$TMPDIR/vscode-ripgrep-cache-$rgversion" "$TMPDIR/rg"
cp "$(command -v rg)" "$TMPDIR/rg/rg"
tar czf "$TMPDIR/vscode-ripgrep-cache-$rgversion/ripgrep-$rgtag-$rgtarget.tar.gz" -C "$TMPDIR/rg" rg
rm -rf "$TMPDIR/package" "$TMPDIR"/*.tgz

cd "$dest.tmp"
echo '{"private":true}' >package.json
export npm_config_unsafe_perm=true npm_config_yes=true npm_config_nodedir="$nodedir" \
	npm_config_build_from_source=true npm_config_audit=false npm_config_fund=false
npm install --no-save --loglevel=error "code-server@$version"
(cd node_modules/code-server && npm rebuild argon2 --loglevel=error)
rm -rf "$TMPDIR"
touch .done
cd "$cache"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "$dest/node_modules/code-server"
