#!/usr/bin/env bash
# Runs docs/cli.md's newcomer walk-through (the sh block after the
# "newcomer walk-through" comment) as written, on a machine with no Go: a
# clean environment (env -i) whose PATH is /usr/bin:/bin, where `go` must
# not be found, in an empty folder. The one difference: `curl` copies the
# file it is asked for from dist/ (DIST), which stands in for the release
# page, and the version in the block is VERSION's.
# Env: VERSION (default git describe), DIST.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION="${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}"
DIST=$(cd "${DIST:-dist}" && pwd)
fail() { printf '[newcomer] FAILED: %s\n' "$*" >&2; exit 1; }

block=$(awk '/<!-- newcomer walk-through/ {on = 1; next} on && /^```sh$/ {inside = 1; next} inside && /^```$/ {exit} inside' docs/cli.md)
[ -n "$block" ] || fail "no sh block after '<!-- newcomer walk-through' in docs/cli.md"
grep -q '^v=' <<<"$block" || fail "the walk-through does not set v= (the version) first"
block=$(sed "s/^v=[^ ]*/v=$VERSION/" <<<"$block")

home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# shellcheck disable=SC2016 # expanded by the inner shell
out=$(cd "$home" && env -i PATH=/usr/bin:/bin HOME="$home" DIST="$DIST" bash -euo pipefail -c '
  if command -v go >/dev/null; then echo "go is in PATH: $(command -v go)"; exit 3; fi
  curl() { for a; do :; done; cp "$DIST/${a##*/}" .; }
  '"$block" 2>&1) || fail "the walk-through stopped (status $?):
$out"
grep -qx "fsrb $VERSION" <<<"$out" || fail "fsrb --version did not print 'fsrb $VERSION':
$out"
grep -qx '\[SUCCESS\] All 2 blocks applied to 2 files\.' <<<"$out" || fail "the example did not apply:
$out"
printf '%s\n' "$out" | sed 's/^/[newcomer] /'
echo "[newcomer] PASSED: docs/cli.md's walk-through with no Go in PATH"
