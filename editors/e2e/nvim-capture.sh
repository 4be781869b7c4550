#!/usr/bin/env bash
# Captures Neovim (0.7.2, in tmux) showing fsrb's diagnostics on the e2e
# patch, for the README: editors/screenshots/nvim.txt (plain text) and
# nvim.png (the same screen rendered by headless Chromium).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${1:-$repo/editors/screenshots}"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/fsrb-nvim-capture.XXXXXX")"
session="fsrb-capture-$$"
trap 'tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$tmp"' EXIT
( cd "$repo" && go build -o "$tmp/bin/" ./cmd/fsrb-lsp )
mkdir -p "$tmp/ws" "$tmp/config/nvim" "$tmp/data/nvim/site/pack/fsrb/start"
cp -R "$here/fixture/before/." "$tmp/ws/"; cp "$here/fixture/change.fsrb" "$tmp/ws/"
ln -s "$repo/editors/nvim" "$tmp/data/nvim/site/pack/fsrb/start/fsrb"
cat >"$tmp/config/nvim/init.lua" <<LUA
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.laststatus = 2
vim.diagnostic.config({ virtual_text = { spacing = 2 }, signs = true, underline = true })
require('fsrb').setup({ cmd = { '$tmp/bin/fsrb-lsp' } })
LUA
tmux new-session -d -s "$session" -x 110 -y 30 \
  "cd '$tmp/ws' && XDG_CONFIG_HOME='$tmp/config' XDG_DATA_HOME='$tmp/data' XDG_CACHE_HOME='$tmp/cache' XDG_STATE_HOME='$tmp/state' TERM=xterm-256color nvim -i NONE -n change.fsrb"
sleep 2
tmux send-keys -t "$session" '3jzt' ''
sleep 0.5
sleep 0.5
tmux send-keys -t "$session" '9j' ':echo ""' Enter
sleep 0.5
mkdir -p "$out"
tmux capture-pane -t "$session" -p >"$out/nvim.txt"
tmux capture-pane -t "$session" -p -e >"$tmp/screen.ansi"
python3 "$here/ansi2html.py" <"$tmp/screen.ansi" >"$tmp/screen.html"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --window-size=1020,560 --screenshot="$out/nvim.png" "file://$tmp/screen.html" >/dev/null 2>&1
echo "wrote $out/nvim.txt and $out/nvim.png"
