#!/usr/bin/env bash
# End-to-end: headless Neovim (Debian's 0.7.2 or newer) + editors/nvim +
# a freshly built fsrb-lsp, on a scratch copy of editors/e2e/fixture.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
start=$(date +%s.%N)
command -v nvim >/dev/null || { echo "e2e-nvim: nvim not found: run editors/e2e/setup.sh (apt-get install neovim)" >&2; exit 1; }
tmp="$(mktemp -d "${TMPDIR:-/tmp}/fsrb-e2e-nvim.XXXXXX")"
keep=${FSRB_E2E_KEEP:-}
cleanup() { [ -n "$keep" ] && echo "e2e-nvim: kept $tmp" || rm -rf "$tmp"; }
trap cleanup EXIT

mkdir -p "$tmp/bin"
if [ -n "${FSRB_LSP_BIN:-}" ]; then   # a prebuilt server, e.g. while the tree does not build
  cp "$FSRB_LSP_BIN" "$tmp/bin/fsrb-lsp"
else
  ( cd "$repo" && go build -o "$tmp/bin/" ./cmd/fsrb-lsp )
fi
mkdir -p "$tmp/ws"
cp -R "$here/fixture/before/." "$tmp/ws/"
cp "$here/fixture/change.fsrb" "$tmp/ws/"

# The plugin installed as a plain package (README: "plain packpath"), with
# the init.lua the README shows.
mkdir -p "$tmp/data/nvim/site/pack/fsrb/start" "$tmp/config/nvim"
ln -s "$repo/editors/nvim" "$tmp/data/nvim/site/pack/fsrb/start/fsrb"
cat >"$tmp/config/nvim/init.lua" <<LUA
require('fsrb').setup({ cmd = { '$tmp/bin/fsrb-lsp', '--log-file', '$tmp/fsrb-lsp.log' } })
LUA

status=0
( cd "$tmp/ws" &&
  env XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" \
      XDG_DATA_HOME="$tmp/data" FSRB_PACKPATH=1 \
      FSRB_PLUGIN="$repo/editors/nvim" FSRB_LSP="$tmp/bin/fsrb-lsp" FSRB_EXPECTED="$here/fixture/after" \
      timeout 90 nvim --headless -i NONE -n -c "luafile $here/nvim/runner.lua" </dev/null 2>"$tmp/nvim.stderr" ) || status=$?
[ $status -ne 0 ] && [ -s "$tmp/nvim.stderr" ] && { echo "--- Neovim's messages:"; cat "$tmp/nvim.stderr"; echo; }
if [ $status -ne 0 ]; then
  keep=1
  echo "e2e-nvim: FAILED (exit $status); server log: $tmp/fsrb-lsp.log, client log: $tmp/cache/nvim/lsp.log" >&2
  [ -f "$tmp/cache/nvim/lsp.log" ] && tail -20 "$tmp/cache/nvim/lsp.log" >&2
  [ $status -eq 124 ] && echo "e2e-nvim: timed out after 90 s" >&2
  exit 1
fi
awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "e2e-nvim: PASSED in %.1f s\n", e - s }'
