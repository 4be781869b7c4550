#!/usr/bin/env bash
# Emacs against a freshly built fsrb-lsp, in batch Emacs: Debian 12's
# emacs-nox 28.2 with elpa-eglot 1.9 and elpa-lsp-mode 8.0, and Emacs 30.1
# from Debian trixie with its built-in eglot (editors/e2e/setup.sh installs
# the first and unpacks the second into the cache: modern-emacs.sh):
#   - emacs/test.el: editors/emacs/fsrb-mode.el with eglot and with
#     lsp-mode, on the shared fixture: highlighting, two diagnostics;
#   - emacs/apply.el: editors/README.md's eglot snippet, copied as written
#     into the init file, on emacs/ambiguous: the ambiguous block's
#     diagnostic, its quick fix, "Apply all blocks" writing src/app.py once,
#     and nothing offered or written a second time; with both Emacs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
command -v emacs >/dev/null || { echo "e2e-emacs: emacs not found (bash editors/e2e/setup.sh, or apt-get install -y emacs-nox elpa-eglot elpa-lsp-mode)" >&2; exit 1; }
emacs30="${FSRB_E2E_CACHE:-$HOME/.cache/fsrb-e2e}/emacs-versions/emacs-trixie"
[ -x "$emacs30" ] || { echo "e2e-emacs: no Emacs 30 at $emacs30 (bash editors/e2e/setup.sh)" >&2; exit 1; }
tmp="$(mktemp -d "${TMPDIR:-/tmp}/fsrb-e2e-emacs.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
( cd "$repo" && go build -o "$tmp/bin/" ./cmd/fsrb-lsp )
status=0
for client in eglot lsp-mode; do
  rm -rf "$tmp/ws" "$tmp/home"; mkdir -p "$tmp/ws" "$tmp/home"
  cp -R "$here/fixture/before/." "$tmp/ws/"; cp "$here/fixture/change.fsrb" "$tmp/ws/"
  HOME="$tmp/home" timeout 60 emacs --batch -l "$here/emacs/test.el" "$client" "$tmp/bin/fsrb-lsp" "$tmp/ws" 2>"$tmp/stderr" || { status=1; cat "$tmp/stderr" >&2; }
done

# The documented configuration, as a user pastes it (its ~/src/fsrb is this
# repository), with fsrb-lsp taken from PATH as the snippet leaves it.
rm -rf "$tmp/ws" "$tmp/home"; mkdir -p "$tmp/ws" "$tmp/home/.emacs.d"
awk '/^eglot \(built in/ {on = 1; next} on && /^```elisp$/ {inside = 1; next} inside && /^```$/ {exit} inside' \
  "$repo/editors/README.md" | sed "s|~/src/fsrb|$repo|" >"$tmp/home/.emacs.d/init.el"
[ -s "$tmp/home/.emacs.d/init.el" ] || { echo "e2e-emacs: no eglot snippet in editors/README.md" >&2; exit 1; }
for e in emacs "$emacs30"; do
  rm -rf "$tmp/ws" "$tmp/home/.emacs.d/eln-cache"; mkdir -p "$tmp/ws"
  cp -R "$here/emacs/ambiguous/." "$tmp/ws/"
  HOME="$tmp/home" PATH="$tmp/bin:$PATH" timeout 120 "$e" --batch -l "$here/emacs/apply.el" "$tmp/ws" 2>"$tmp/stderr" ||
    { status=1; cat "$tmp/stderr" >&2; }
done
[ $status -eq 0 ] && echo "e2e-emacs: PASSED ($(emacs --version | head -1); $("$emacs30" --version | head -1))" || { echo "e2e-emacs: FAILED" >&2; exit 1; }
