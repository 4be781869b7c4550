#!/usr/bin/env bash
# End-to-end: headless Neovim + editors/nvim + a freshly built fsrb-lsp, on a
# scratch copy of editors/e2e/fixture, on three Neovims:
#   - the system's nvim (Debian 12: 0.7.2),
#   - Debian trixie's (0.10.x) and forky's (0.12.x), run from the cache by
#     the wrappers editors/e2e/modern-nvim.sh writes (editors/e2e/setup.sh).
# Each Neovim runs the scenario once per way of configuring the plugin
# (installed as a plain package; FSRB_MODE in nvim/runner.lua):
#   setup   init.lua calls require('fsrb').setup{cmd=...}   (every version)
#   g       init.lua sets vim.g.fsrb = {cmd=...}, no setup() (every version)
#   enable  init.lua is vim.lsp.enable('fsrb') and nothing else, the server
#           found on $PATH                                  (0.11 and newer)
# Then, in the same set-up, nvim/newcomer.lua starts Neovim on a patch and
# opens a second one, checks both are served, :help fsrb, :checkhealth fsrb.
# Then nvim/chat.lua (chat plugins' buffers, :Fsrb paste) and
# nvim/answers.lua (answers as chat tools write them), each in a workspace
# of its own. Before the modes, nvim/layout.lua checks the plugin's modules: none
# requires lua/fsrb/init.lua back, config.lua requires none.
# A missing Neovim is a failure, never a skip. NVIM=/path/to/nvim runs that
# one only; FSRB_E2E_MODES="setup enable" only those modes. On any version,
# a "deprecated" warning fails the run.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cache="${FSRB_E2E_CACHE:-$HOME/.cache/fsrb-e2e}"
start=$(date +%s.%N)

nvims=()
if [ -n "${NVIM:-}" ]; then
  nvims=("$NVIM")
else
  missing=""
  if command -v nvim >/dev/null; then nvims+=("$(command -v nvim)"); else missing+=" nvim (apt-get install neovim)"; fi
  for suite in trixie forky; do
    w="$cache/nvim-versions/nvim-$suite"
    if [ -x "$w" ]; then nvims+=("$w"); else missing+=" $w"; fi
  done
  if [ -n "$missing" ]; then
    echo "e2e-nvim: missing:$missing — run editors/e2e/setup.sh" >&2
    exit 1
  fi
fi

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
# The command line, which changes the files behind Neovim's back (step 7b).
( cd "$repo" && go build -o "$tmp/bin/" ./cmd/fsrb )

# run NVIM_BIN MODE: the scenario in its own workspace and XDG folders.
run() {
  local nvim=$1 mode=$2 version dir status=0 t0 path=$PATH
  version=$("$nvim" --version 2>/dev/null | head -1 | sed 's/^NVIM v//') || true
  [ -n "$version" ] || { echo "e2e-nvim: $nvim does not start" >&2; return 1; }
  dir="$tmp/nvim-$version-$mode"
  mkdir -p "$dir/ws"
  cp -R "$here/fixture/before/." "$dir/ws/"
  cp "$here/fixture/change.fsrb" "$dir/ws/"
  # The plugin installed as a plain package (README: "plain packpath"), with
  # an init.lua the README shows.
  mkdir -p "$dir/data/nvim/site/pack/fsrb/start" "$dir/config/nvim"
  ln -s "$repo/editors/nvim" "$dir/data/nvim/site/pack/fsrb/start/fsrb"
  # (Plus: no Python provider. Its detection, run when a *.py buffer loads,
  # takes 2-4 s here and has nothing to do with fsrb.)
  echo "vim.g.loaded_python3_provider = 0" >"$dir/config/nvim/init.lua"
  case $mode in
    setup) echo "require('fsrb').setup({ cmd = { '$tmp/bin/fsrb-lsp', '--log-file', '$dir/fsrb-lsp.log' } })" ;;
    g) echo "vim.g.fsrb = { cmd = { '$tmp/bin/fsrb-lsp', '--log-file', '$dir/fsrb-lsp.log' } }" ;;
    enable) echo "vim.lsp.enable('fsrb')"; path="$tmp/bin:$PATH" ;;
  esac >>"$dir/config/nvim/init.lua"
  echo "=== Neovim $version ($nvim), configured by: $mode"
  t0=$(date +%s.%N)
  ( cd "$dir/ws" &&
    env PATH="$path" XDG_CACHE_HOME="$dir/cache" XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config" \
        XDG_DATA_HOME="$dir/data" FSRB_MODE="$mode" \
        FSRB_PLUGIN="$repo/editors/nvim" FSRB_LSP="$tmp/bin/fsrb-lsp" \
        FSRB_EXPECTED="$here/fixture/after" FSRB_BEFORE="$here/fixture/before" FSRB_CLI="$tmp/bin/fsrb" \
        timeout 90 "$nvim" --headless -i NONE -n -c "luafile $here/nvim/runner.lua" </dev/null 2>"$dir/nvim.stderr" ) || status=$?
  # The same set-up as a newcomer meets it: a patch given on the command
  # line, a second one opened while the client runs, :help, :checkhealth.
  if [ $status -eq 0 ]; then
    mkdir -p "$dir/ws2"
    printf 'one\n' >"$dir/ws2/a.txt"
    printf 'a.txt\n<<<<<<< SEARCH\none\n=======\nONE\n>>>>>>> REPLACE\n' >"$dir/ws2/first.fsrb"
    cp "$dir/ws2/first.fsrb" "$dir/ws2/second.fsrb"
    ( cd "$dir/ws2" &&
      env PATH="$path" XDG_CACHE_HOME="$dir/cache2" XDG_STATE_HOME="$dir/state2" XDG_CONFIG_HOME="$dir/config" \
          XDG_DATA_HOME="$dir/data" FSRB_MODE="$mode" \
          timeout 60 "$nvim" --headless -i NONE -n first.fsrb -c "luafile $here/nvim/newcomer.lua" </dev/null 2>>"$dir/nvim.stderr" ) || status=$?
    if [ $status -eq 0 ] && [ -e "$dir/ws2/notes" ]; then
      echo "e2e-nvim: an Apply discarded with :qall! left notes/ behind:" >&2; ls -lR "$dir/ws2/notes" >&2; status=1
    fi
  fi
  # Chat answers in the scratch buffers of chat plugins, and :Fsrb paste.
  if [ $status -eq 0 ]; then
    mkdir -p "$dir/ws3"
    cp -R "$here/fixture/chat/before/." "$dir/ws3/"
    ( cd "$dir/ws3" &&
      env PATH="$path" XDG_CACHE_HOME="$dir/cache3" XDG_STATE_HOME="$dir/state3" XDG_CONFIG_HOME="$dir/config" \
          XDG_DATA_HOME="$dir/data" FSRB_MODE="$mode" FSRB_CHAT_ANSWER="$here/fixture/chat/answer.md" \
          FSRB_CHAT_BEFORE="$here/fixture/chat/before" FSRB_CHAT_AFTER="$here/fixture/chat/after" \
          timeout 90 "$nvim" --headless -i NONE -n -c "luafile $here/nvim/chat.lua" </dev/null 2>>"$dir/nvim.stderr" ) || status=$?
  fi
  # Answers as chat tools write them: a lazy block, CopilotChat's line
  # ranges, an answer with no edit (on 0.7, in Markdown buffers).
  if [ $status -eq 0 ]; then
    mkdir -p "$dir/ws4"
    cp -R "$here/fixture/answers/before/." "$dir/ws4/"
    ( cd "$dir/ws4" &&
      env PATH="$path" XDG_CACHE_HOME="$dir/cache4" XDG_STATE_HOME="$dir/state4" XDG_CONFIG_HOME="$dir/config" \
          XDG_DATA_HOME="$dir/data" FSRB_MODE="$mode" FSRB_ANSWERS="$here/fixture/answers" \
          timeout 90 "$nvim" --headless -i NONE -n -c "luafile $here/nvim/answers.lua" </dev/null 2>>"$dir/nvim.stderr" ) || status=$?
  fi
  if [ $status -eq 0 ] && grep -qi deprecated "$dir/nvim.stderr"; then
    echo "e2e-nvim: Neovim $version ($mode) printed a deprecation warning:" >&2
    status=3
  fi
  if [ $status -ne 0 ]; then
    keep=1
    [ -s "$dir/nvim.stderr" ] && { echo "--- Neovim's messages:"; cat "$dir/nvim.stderr"; echo; }
    echo "e2e-nvim: Neovim $version ($mode) FAILED (exit $status); server log: $dir/fsrb-lsp.log, client log: $dir/cache/nvim/lsp.log" >&2
    [ -f "$dir/cache/nvim/lsp.log" ] && tail -20 "$dir/cache/nvim/lsp.log" >&2
    [ $status -eq 124 ] && echo "e2e-nvim: timed out after 90 s" >&2
    summary+=("Neovim $version ($mode): FAILED")
    verdict[$version]=FAILED
    return 1
  fi
  [ -n "${versions[$version]:-}" ] || order+=("$version")
  versions[$version]+="${versions[$version]:+, }$mode"
  summary+=("$(awk -v v="$version" -v m="$mode" -v s="$t0" -v e="$(date +%s.%N)" 'BEGIN { printf "Neovim %s (%s): passed in %.1f s", v, m, e - s }')")
}

# layout NVIM_BIN: the plugin's modules and what they require.
layout() {
  local nvim=$1 version status=0
  version=$("$nvim" --version 2>/dev/null | head -1 | sed 's/^NVIM v//') || true
  echo "=== Neovim $version ($nvim): the plugin's layout"
  env FSRB_PLUGIN="$repo/editors/nvim" timeout 30 "$nvim" --headless -u NONE -i NONE -n \
    -c "luafile $here/nvim/layout.lua" </dev/null || status=$?
  if [ $status -ne 0 ]; then
    summary+=("Neovim $version (layout): FAILED")
    verdict[$version]=FAILED
    return 1
  fi
}

summary=()
order=()
declare -A versions=() verdict=()
failed=0
for n in "${nvims[@]}"; do
  layout "$n" || failed=1
  for mode in ${FSRB_E2E_MODES:-setup g enable}; do
    if [ "$mode" = enable ] && [ "$("$n" --headless -u NONE -i NONE -n --cmd 'lua io.stdout:write(vim.fn.has("nvim-0.11"))' --cmd 'qall!' 2>/dev/null)" != 1 ]; then
      continue # vim.lsp.enable is 0.11+
    fi
    run "$n" "$mode" || failed=1
  done
done
printf 'e2e-nvim: %s\n' "${summary[@]}"
for v in "${order[@]}"; do
  [ "${verdict[$v]:-}" = FAILED ] || echo "e2e-nvim: Neovim $v PASSED (${versions[$v]})"
done
if [ $failed -ne 0 ]; then
  echo "e2e-nvim: FAILED" >&2
  exit 1
fi
awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "e2e-nvim: PASSED in %.1f s\n", e - s }'
