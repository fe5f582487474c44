#!/usr/bin/env bash
# Builds the release: the plugin-lsp CLI for each platform as an archive
# (tar.gz; zip for Windows) with README, LICENSE, THIRD_PARTY_NOTICES.md,
# CHANGELOG.md and docs, the VS Code extension per
# platform (.vsix with its own server) plus the universal one, and
# SHA256SUMS over all of them. Output: dist/release/<version>/.
#
#   scripts/release.sh            everything
#   scripts/release.sh --no-vsix  only the CLI archives
#
# Built for reproducibility (-trimpath, no build ID, file times set to the
# commit's, fixed owners and order in the archives); that two builds give the
# same checksums is not yet checked by a test.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^var version = "\(.*\)"$/\1/p' cmd/plugin-lsp/main.go)
[ -n "$version" ] || { echo "release: no version in cmd/plugin-lsp/main.go" >&2; exit 1; }
out="dist/release/$version"
rm -rf "$out"
mkdir -p "$out"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
epoch=$(git log -1 --format=%ct 2>/dev/null || echo 0)

# os/arch pairs: Go's GOOS/GOARCH.
targets=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64)
for t in "${targets[@]}"; do
	goos=${t%/*} goarch=${t#*/}
	name="plugin-lsp_${version}_${goos}_${goarch}"
	dir="$stage/$name"
	mkdir -p "$dir"
	exe=plugin-lsp
	[ "$goos" = windows ] && exe=plugin-lsp.exe
	GOOS=$goos GOARCH=$goarch CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -buildid= -X main.version=$version" -o "$dir/$exe" ./cmd/plugin-lsp
	cp README.md LICENSE THIRD_PARTY_NOTICES.md CHANGELOG.md "$dir/"
	cp -r docs "$dir/docs"
	find "$dir" -exec touch -h -d "@$epoch" {} +
	if [ "$goos" = windows ]; then
		(cd "$stage" && find "$name" -print | LC_ALL=C sort | zip -q -X -D "$OLDPWD/$out/$name.zip" -@)
	else
		tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -czf "$out/$name.tar.gz" "$name"
	fi
	echo "release: $out/$name (${goos}/${goarch})"
done

if [ "${1:-}" != "--no-vsix" ]; then
	(cd extension && { [ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error; } && npm run --silent package)
	cp extension/vsix/*.vsix "$out/"
fi

(cd "$out" && sums=$(sha256sum -- *) && LC_ALL=C sort -k2 <<<"$sums" >SHA256SUMS && sha256sum --quiet -c SHA256SUMS)
echo "release: $out/SHA256SUMS"
cat "$out/SHA256SUMS"
