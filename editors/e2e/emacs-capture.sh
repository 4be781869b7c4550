#!/usr/bin/env bash
# Draws screenshots/emacs.{txt,png}: Emacs 30.1 (the cache's, from
# modern-emacs.sh) in a terminal, with editors/README.md's eglot snippet as
# its init file, on emacs/ambiguous/change.fsrb: block #2's ambiguous
# diagnostic at the end of its line (Emacs 30's
# flymake-show-diagnostics-at-end-of-line, added for the picture) and the
# list of the buffer's diagnostics below. tmux and Chromium, as
# nvim-capture.sh draws Neovim's.
#   usage: emacs-capture.sh [OUT_DIR]    (FSRB_LSP_BIN: a prebuilt server)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${1:-$repo/editors/screenshots}"
emacs30="${FSRB_E2E_CACHE:-$HOME/.cache/fsrb-e2e}/emacs-versions/emacs-trixie"
[ -x "$emacs30" ] || { echo "emacs-capture: $emacs30 missing: run editors/e2e/setup.sh" >&2; exit 1; }
. "$here/capture.sh"
capture_tmp emacs
session="fsrb-emacs-capture-$$"
mkdir -p "$tmp/home/.emacs.d" "$tmp/ws" "$out"
awk '/^eglot \(built in/ {on = 1; next} on && /^```elisp$/ {inside = 1; next} inside && /^```$/ {exit} inside' \
  "$repo/editors/README.md" | sed "s|~/src/fsrb|$repo|" >"$tmp/home/.emacs.d/init.el"
cat >>"$tmp/home/.emacs.d/init.el" <<'EL'
;; For the picture only.
(setq inhibit-startup-screen t flymake-show-diagnostics-at-end-of-line 'short)
(global-display-line-numbers-mode 1)
EL
cp -R "$here/emacs/ambiguous/." "$tmp/ws/"
rows=30
tmux new-session -d -s "$session" -x 110 -y "$rows" \
  "cd '$tmp/ws' && HOME='$tmp/home' PATH='$tmp/bin:$PATH' TERM=xterm-256color '$emacs30' -nw change.fsrb"
# The diagnostics come once eglot has connected and fsrb-lsp has published.
for _ in $(seq 100); do
  tmux capture-pane -t "$session" -p | grep -q 'matches 2 places' && break
  sleep 0.2
done
tmux capture-pane -t "$session" -p | grep -q 'matches 2 places' ||
  { tmux capture-pane -t "$session" -p >&2; echo "emacs-capture: no ambiguous diagnostic on screen" >&2; exit 1; }
tmux send-keys -t "$session" M-x 'flymake-show-buffer-diagnostics' Enter
sleep 2
shoot emacs "$rows"
