#!/usr/bin/env bash
# Captures Neovim in tmux on the e2e patch, for the README, as plain text and
# as a PNG (the same screen rendered by headless Chromium):
#   - screenshots/nvim.{txt,png}: Neovim 0.7.2 (the system's) showing fsrb's
#     diagnostics and lenses on the patch as the model wrote it;
#   - screenshots/nvim-0.10.{txt,png} and nvim-0.12.{txt,png}: the same on
#     Neovim 0.10 and 0.12 (the cache's trixie and forky wrappers);
#   - screenshots/nvim-applied.{txt,png}: Neovim 0.12 (the cache's forky
#     wrapper, see modern-nvim.sh; NVIM_APPLIED=... to use another) after the
#     "farewell" quick fix, :Fsrb apply and :wall (capture-applied.lua): the
#     patch showing itself applied, over the edited src/app.py;
#   - screenshots/nvim-preview.{txt,png}: Neovim 0.12 (the same) after the
#     quick fix and :Fsrb preview (capture-preview.lua), on src/app.py's tab
#     page: the current and the proposed text as a diff.
#   - screenshots/nvim-chat-arriving.{txt,png} and nvim-chat.{txt,png}:
#     Neovim 0.12 (the same), a chat answer streaming into a
#     codecompanion-like buffer beside calc.py (capture-chat.lua): while
#     its second block arrives, and once the answer is complete.
#   - screenshots/nvim-lazy-arriving, nvim-lazy, nvim-lazy-applied
#     ({txt,png}): Neovim 0.12 (the same), codecompanion's lazy answer
#     (fixture/answers/lazy.md) streaming into its buffer beside
#     src/app.py, complete, then applied and written (capture-answers.lua);
#     nvim-ranges: CopilotChat's two line ranges (ranges.md) applied
#     beside src/x.py.
#   usage: nvim-capture.sh [OUT_DIR]     (FSRB_LSP_BIN: a prebuilt server;
#          FSRB_CAPTURES="preview": only those of nvim, nvim010,
#          nvim012, applied, preview, ondisk, chat, answers)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="${1:-$repo/editors/screenshots}"
cache="${FSRB_E2E_CACHE:-$HOME/.cache/fsrb-e2e}"
nvim_applied="${NVIM_APPLIED:-$cache/nvim-versions/nvim-forky}"
[ -x "$nvim_applied" ] || { echo "nvim-capture: $nvim_applied missing: run editors/e2e/setup.sh" >&2; exit 1; }
. "$here/capture.sh"
capture_tmp nvim
( cd "$repo" && go build -o "$tmp/bin/" ./cmd/fsrb )
mkdir -p "$tmp/config/nvim" "$tmp/data/nvim/site/pack/fsrb/start" "$out"
ln -s "$repo/editors/nvim" "$tmp/data/nvim/site/pack/fsrb/start/fsrb"
cat >"$tmp/config/nvim/init.lua" <<LUA
vim.g.loaded_python3_provider = 0
vim.o.termguicolors = true
vim.o.number = true
vim.o.signcolumn = 'yes'
vim.o.laststatus = 2
vim.o.shortmess = vim.o.shortmess .. 'F'
vim.diagnostic.config({ virtual_text = { spacing = 2 }, signs = true, underline = true })
require('fsrb').setup({ cmd = { '$tmp/bin/fsrb-lsp' } })
LUA

# start NAME ROWS NVIM [ARGS...]: a fresh copy of the fixture and Neovim in
# a tmux window of 110 columns and ROWS rows.
start() {
  local name=$1 rows=$2 nvim=$3; shift 3
  rm -rf "$tmp/ws-$name"; mkdir -p "$tmp/ws-$name"
  if [ -n "${ANSWERS:-}" ]; then # the files of fixture/answers, no patch
    cp -R "$here/fixture/answers/before/." "$tmp/ws-$name/"
  else
    cp -R "$here/fixture/before/." "$tmp/ws-$name/"; cp "$here/fixture/change.fsrb" "$tmp/ws-$name/"
  fi
  # (The last session gone, the tmux server exits: a new session started
  # while it does fails with "server exited unexpectedly".)
  [ -z "$session" ] || { tmux kill-session -t "$session" 2>/dev/null || true; sleep 0.5; }
  session="fsrb-capture-$$-$name"
  tmux new-session -d -s "$session" -x 110 -y "$rows" \
    "cd '$tmp/ws-$name' && FSRB_CAPTURE_FLAG='$tmp/flag-$name' FSRB_CAPTURE_CASE='${CASE:-}' FSRB_CLI='$tmp/bin/fsrb' XDG_CONFIG_HOME='$tmp/config' XDG_DATA_HOME='$tmp/data' XDG_CACHE_HOME='$tmp/cache-$name' XDG_STATE_HOME='$tmp/state-$name' TERM=xterm-256color '$nvim' -i NONE -n $*"
}

wanted() { case " ${FSRB_CAPTURES:-nvim nvim010 nvim012 applied preview} " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

# 1. Neovim 0.7.2: the diagnostics on the patch as written.
if wanted nvim; then
start diagnostics 30 nvim change.fsrb
sleep 2
tmux send-keys -t "$session" '3jzt' ''
sleep 1
tmux send-keys -t "$session" '9j' ':echo ""' Enter
sleep 0.5
shoot nvim 30
fi

# 1b. Neovim 0.10 and 0.12: the same screen. On 0.10 lens, inlay hint and
# diagnostic virtual text would all stand at the end of the opening line;
# 0.12 draws the lenses above the blocks and the hints at the line's end.
for v in nvim010:trixie:nvim-0.10 nvim012:forky:nvim-0.12; do
  IFS=: read -r which suite name <<<"$v"
  wanted "$which" || continue
  start "$which" 30 "$cache/nvim-versions/nvim-$suite" change.fsrb
  sleep 2
  tmux send-keys -t "$session" '3jzt' ''
  sleep 1
  tmux send-keys -t "$session" '9j' ':echo ""' Enter
  sleep 0.5
  shoot "$name" 30
done

# 2. Neovim 0.12: applied. The patch above, the end of src/app.py below.
if wanted applied; then
start applied 40 "$nvim_applied" change.fsrb
sleep 1
tmux send-keys -t "$session" ":luafile $here/nvim/capture-applied.lua" Enter
for _ in $(seq 100); do [ -s "$tmp/flag-applied" ] && break; sleep 0.1; done
flag=$(cat "$tmp/flag-applied" 2>/dev/null || echo "no answer")
[ "$flag" = done ] || { tmux capture-pane -t "$session" -p >&2; echo "nvim-capture: $flag" >&2; exit 1; }
tmux send-keys -t "$session" ':cd .' Enter ':belowright 11split +7 src/app.py' Enter 'zt' ':wincmd k' Enter ':echo ""' Enter
sleep 1
shoot nvim-applied 40
fi

# 3. Neovim 0.12: :Fsrb preview, on src/app.py's tab page.
if wanted preview; then
start preview 30 "$nvim_applied" change.fsrb
sleep 1
tmux send-keys -t "$session" ":luafile $here/nvim/capture-preview.lua" Enter
for _ in $(seq 100); do [ -s "$tmp/flag-preview" ] && break; sleep 0.1; done
flag=$(cat "$tmp/flag-preview" 2>/dev/null || echo "no answer")
[ "$flag" = done ] || { tmux capture-pane -t "$session" -p >&2; echo "nvim-capture: $flag" >&2; exit 1; }
sleep 1
shoot nvim-preview 30
fi

# 4. screenshots/nvim-ondisk.{txt,png}, Neovim 0.12 (as above): the patch
# applied on disk by the fsrb command line after Neovim applied, saved,
# reverted and saved it (capture-ondisk.lua); :Fsrb status says so. The
# patch above, src/app.py (a hidden buffer until now, reloaded) below.
# Drawn by default and by FSRB_CAPTURES="ondisk".
if wanted ondisk || [ -z "${FSRB_CAPTURES:-}" ]; then
start ondisk 40 "$nvim_applied" change.fsrb
sleep 1
tmux send-keys -t "$session" ":luafile $here/nvim/capture-ondisk.lua" Enter
for _ in $(seq 200); do [ -s "$tmp/flag-ondisk" ] && break; sleep 0.1; done
flag=$(cat "$tmp/flag-ondisk" 2>/dev/null || echo "no answer")
[ "$flag" = done ] || { tmux capture-pane -t "$session" -p >&2; echo "nvim-capture: $flag" >&2; exit 1; }
tmux send-keys -t "$session" ':cd .' Enter ':belowright 11split +7 src/app.py' Enter 'zt' ':wincmd k' Enter ':Fsrb status' Enter
sleep 1
shoot nvim-ondisk 40
fi

# 5. Neovim 0.12 (as above): a chat answer streaming into a
# codecompanion-like buffer (capture-chat.lua), while its second block
# arrives and once it is complete. Drawn by default and by
# FSRB_CAPTURES="chat".
if wanted chat || [ -z "${FSRB_CAPTURES:-}" ]; then
start chat 34 "$nvim_applied"
sleep 1
tmux send-keys -t "$session" ":luafile $here/nvim/capture-chat.lua" Enter
for step in mid done; do
  for _ in $(seq 300); do [ "$(cat "$tmp/flag-chat" 2>/dev/null)" = "$step" ] && break; grep -q '^error' "$tmp/flag-chat" 2>/dev/null && break; sleep 0.1; done
  flag=$(cat "$tmp/flag-chat" 2>/dev/null || echo "no answer")
  [ "$flag" = "$step" ] || { tmux capture-pane -t "$session" -p >&2; echo "nvim-capture: $flag" >&2; exit 1; }
  sleep 0.5
  if [ "$step" = mid ]; then shoot nvim-chat-arriving 34; touch "$tmp/flag-chat.go"; else shoot nvim-chat 34; fi
done
fi

# 6. Neovim 0.12 (as above): answers as chat tools write them
# (capture-answers.lua). Drawn by default and by FSRB_CAPTURES="answers".
if wanted answers || [ -z "${FSRB_CAPTURES:-}" ]; then
ANSWERS=1 CASE=lazy start lazy 34 "$nvim_applied"
sleep 1
tmux send-keys -t "$session" ":luafile $here/nvim/capture-answers.lua" Enter
for step in mid done applied; do
  for _ in $(seq 300); do [ "$(cat "$tmp/flag-lazy" 2>/dev/null)" = "$step" ] && break; grep -q '^error' "$tmp/flag-lazy" 2>/dev/null && break; sleep 0.1; done
  flag=$(cat "$tmp/flag-lazy" 2>/dev/null || echo "no answer")
  [ "$flag" = "$step" ] || { tmux capture-pane -t "$session" -p >&2; echo "nvim-capture: $flag" >&2; exit 1; }
  sleep 0.5
  case $step in
    mid) shoot nvim-lazy-arriving 34; touch "$tmp/flag-lazy.go" ;;
    done) shoot nvim-lazy 34; touch "$tmp/flag-lazy.go2" ;;
    applied) shoot nvim-lazy-applied 34 ;;
  esac
done
ANSWERS=1 CASE=ranges start ranges 34 "$nvim_applied"
sleep 1
tmux send-keys -t "$session" ":luafile $here/nvim/capture-answers.lua" Enter
for _ in $(seq 300); do [ "$(cat "$tmp/flag-ranges" 2>/dev/null)" = applied ] && break; grep -q '^error' "$tmp/flag-ranges" 2>/dev/null && break; sleep 0.1; done
flag=$(cat "$tmp/flag-ranges" 2>/dev/null || echo "no answer")
[ "$flag" = applied ] || { tmux capture-pane -t "$session" -p >&2; echo "nvim-capture: $flag" >&2; exit 1; }
sleep 0.5
shoot nvim-ranges 34
fi
