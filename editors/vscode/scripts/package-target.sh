#!/usr/bin/env bash
# Packages the extension for one VS Code platform, with the fsrb-lsp
# language server and the fsrb-mcp MCP server inside (the way rust-analyzer,
# ruff and biome ship):
#   scripts/package-target.sh [TARGET]        -> fsrb-TARGET.vsix
# TARGET is vsce's --target name, by default the host's: linux-x64,
# linux-arm64, linux-armhf, alpine-x64, alpine-arm64, darwin-x64,
# darwin-arm64, win32-x64, win32-arm64. The server goes into
# server/<node platform>-<node arch>/ (alpine-x64 -> linux-x64, linux-armhf ->
# linux-arm), where src/server.ts looks for it after the fsrb.server.path
# setting and before PATH.
#
# The server is built from this repository with cgo (the tree-sitter
# grammars are C, yaml's scanner is C++): for a target other than the host,
# set CC and CXX to that platform's cross compilers (README: "Other
# platforms"), or set FSRB_SERVER_BIN to a server built on the platform
# (and FSRB_MCP_BIN to its fsrb-mcp; by default the one beside it, if any:
# without one, agent mode takes fsrb-mcp from PATH).
# Linux and Windows servers are linked statically (any glibc or musl; no
# MinGW DLLs). Env: GO (default go), VERSION (default git describe).
set -euo pipefail
cd "$(dirname "$0")/.."
GO="${GO:-go}"
VERSION="${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}"

host() {
  local os arch
  os=$("$GO" env GOOS); arch=$("$GO" env GOARCH)
  case "$os" in windows) os=win32 ;; esac
  case "$arch" in amd64) arch=x64 ;; arm) arch=armhf ;; esac
  echo "$os-$arch"
}
target="${1:-$(host)}"

goarm=""; static=1; ext=""
case "$target" in
  linux-x64|alpine-x64)     goos=linux   goarch=amd64 dir=linux-x64 ;;
  linux-arm64|alpine-arm64) goos=linux   goarch=arm64 dir=linux-arm64 ;;
  linux-armhf)              goos=linux   goarch=arm   dir=linux-arm goarm=7 ;;
  darwin-x64)               goos=darwin  goarch=amd64 dir=darwin-x64 static= ;;
  darwin-arm64)             goos=darwin  goarch=arm64 dir=darwin-arm64 static= ;;
  win32-x64)                goos=windows goarch=amd64 dir=win32-x64 ext=.exe ;;
  win32-arm64)              goos=windows goarch=arm64 dir=win32-arm64 ext=.exe ;;
  *) echo "package-target: unknown target '$target' (linux-x64, linux-arm64, linux-armhf, alpine-x64, alpine-arm64, darwin-x64, darwin-arm64, win32-x64, win32-arm64)" >&2; exit 2 ;;
esac

for c in "${CC:-}" "${CXX:-}"; do
  if [ -z "${FSRB_SERVER_BIN:-}" ] && [ -n "$c" ] && ! command -v "${c%% *}" >/dev/null; then
    echo "package-target: the C/C++ compiler '$c' is not installed (linux-arm64 on Debian: apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu)" >&2
    exit 1
  fi
done
rm -rf server
trap 'rm -rf server' EXIT
mkdir -p "server/$dir"
bin="server/$dir/fsrb-lsp$ext"
mcp="server/$dir/fsrb-mcp$ext"
if [ -n "${FSRB_SERVER_BIN:-}" ]; then
  cp "$FSRB_SERVER_BIN" "$bin"
  chmod 755 "$bin"
  mcp_bin="${FSRB_MCP_BIN:-$(dirname "$FSRB_SERVER_BIN")/fsrb-mcp$ext}"
  if [ -f "$mcp_bin" ]; then
    cp "$mcp_bin" "$mcp"
    chmod 755 "$mcp"
  else
    echo "package-target: no $mcp_bin: packaged without fsrb-mcp (agent mode takes it from PATH)" >&2
    mcp=""
  fi
else
  ldflags="-s -w -X main.version=$VERSION"
  tags=""
  if [ -n "$static" ]; then
    # netgo/osusergo: no glibc NSS calls, which a static binary cannot make.
    ldflags="$ldflags -linkmode external -extldflags -static"
    tags="-tags netgo,osusergo"
  fi
  echo "package-target: building fsrb-lsp and fsrb-mcp $VERSION for $goos/$goarch${static:+ (static)}${CC:+ with CC=$CC}"
  # The grammars' C compilers warn a lot: show their output only on failure.
  errs=$(mktemp)
  ( cd ../.. && CGO_ENABLED=1 GOOS=$goos GOARCH=$goarch GOARM=$goarm \
      "$GO" build -trimpath $tags -ldflags "$ldflags" -o "editors/vscode/server/$dir/" ./cmd/fsrb-lsp ./cmd/fsrb-mcp ) 2>"$errs" ||
    { cat "$errs" >&2; rm -f "$errs"; echo "package-target: FAILED to build fsrb-lsp and fsrb-mcp for $target" >&2; exit 1; }
  rm -f "$errs"
fi
command -v file >/dev/null && echo "package-target: $(file -b "$bin" | cut -c1-110)"
# Run them when this machine can: natively, or Linux arm servers under
# qemu-user (apt-get install qemu-user).
runner=() can_run=1
if [ "$goos/$goarch" = "$("$GO" env GOHOSTOS)/$("$GO" env GOHOSTARCH)" ]; then runner=()
elif [ "$goos/$goarch" = linux/arm64 ] && command -v qemu-aarch64 >/dev/null; then runner=(qemu-aarch64)
elif [ "$goos/$goarch" = linux/arm ] && command -v qemu-arm >/dev/null; then runner=(qemu-arm)
else can_run=
fi
if [ -n "$can_run" ]; then
  for b in "$bin" ${mcp:+"$mcp"}; do
    got=$("${runner[@]}" "./$b" --version) || { echo "package-target: FAILED: ${runner[*]} ./$b --version" >&2; exit 1; }
    echo "package-target: ${runner[*]:+${runner[*]} }./$b --version: $got"
  done
fi
npx vsce package --no-dependencies --target "$target" --out "fsrb-$target.vsix"
echo "package-target: fsrb-$target.vsix ($(du -h "fsrb-$target.vsix" | cut -f1); fsrb-lsp $(du -h "$bin" | cut -f1)${mcp:+, fsrb-mcp $(du -h "$mcp" | cut -f1)})"
