#!/usr/bin/env bash
# Checks the Emacs snippets of editors/README.md (editors/emacs/fsrb-mode.el)
# with eglot and lsp-mode against a freshly built fsrb-lsp, in batch Emacs.
# Needs: apt-get install -y emacs-nox elpa-eglot elpa-lsp-mode (Debian 12).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
command -v emacs >/dev/null || { echo "e2e-emacs: emacs not found (apt-get install -y emacs-nox elpa-eglot elpa-lsp-mode)" >&2; exit 1; }
tmp="$(mktemp -d "${TMPDIR:-/tmp}/fsrb-e2e-emacs.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
( cd "$repo" && go build -o "$tmp/bin/" ./cmd/fsrb-lsp )
status=0
for client in eglot lsp-mode; do
  rm -rf "$tmp/ws" "$tmp/home"; mkdir -p "$tmp/ws" "$tmp/home"
  cp -R "$here/fixture/before/." "$tmp/ws/"; cp "$here/fixture/change.fsrb" "$tmp/ws/"
  HOME="$tmp/home" timeout 60 emacs --batch -l "$here/emacs/test.el" "$client" "$tmp/bin/fsrb-lsp" "$tmp/ws" 2>"$tmp/stderr" || { status=1; cat "$tmp/stderr" >&2; }
done
[ $status -eq 0 ] && echo "e2e-emacs: PASSED" || { echo "e2e-emacs: FAILED" >&2; exit 1; }
