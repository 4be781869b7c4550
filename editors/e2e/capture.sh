# What nvim-capture.sh and emacs-capture.sh share, sourced by both after
# they set here, repo and out: the scratch folder and its clean-up, the
# server built into it, and the tmux pane drawn as text and as a PNG.

# capture_tmp NAME: $tmp, a scratch folder removed on exit with the tmux
# session $session (if one is set by then), holding fsrb-lsp in $tmp/bin
# (FSRB_LSP_BIN: a prebuilt one, copied).
capture_tmp() {
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/fsrb-$1-capture.XXXXXX")"
  session=""
  trap '[ -z "$session" ] || tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/bin"
  if [ -n "${FSRB_LSP_BIN:-}" ]; then
    cp "$FSRB_LSP_BIN" "$tmp/bin/fsrb-lsp"
  else
    ( cd "$repo" && go build -o "$tmp/bin/" ./cmd/fsrb-lsp )
  fi
}

# shoot NAME ROWS: the pane as $out/NAME.txt and as $out/NAME.png, the same
# screen rendered by headless Chromium (ansi2html draws 18 px rows).
shoot() {
  local name=$1 rows=$2
  tmux capture-pane -t "$session" -p >"$out/$name.txt"
  tmux capture-pane -t "$session" -p -e >"$tmp/$name.ansi"
  python3 "$here/ansi2html.py" <"$tmp/$name.ansi" >"$tmp/$name.html"
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --window-size=1020,$((rows * 18 + 20)) --screenshot="$out/$name.png" "file://$tmp/$name.html" >/dev/null 2>&1
  echo "wrote $out/$name.txt and $out/$name.png"
}
