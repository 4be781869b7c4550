#!/usr/bin/env bash
# Newer Neovims for the e2e test on a Debian 12 machine, without installing
# anything system-wide. Debian 12 ships Neovim 0.7.2; Debian trixie ships
# 0.10.x and forky 0.12.x, built against a newer glibc than Debian 12's. For
# each of those suites this script
#   - downloads the suite's neovim, neovim-runtime, libc6 and the libraries
#     nvim links to (apt-get download against a private sources list whose
#     mirror is the one this machine's own apt sources use),
#   - unpacks them under CACHE/<suite> (dpkg-deb -x),
#   - points the unpacked nvim at the unpacked glibc loader and libraries
#     (patchelf), so that it runs as itself: the TUI re-executes itself with
#     --embed, which a loader wrapper would break,
#   - writes CACHE/nvim-<suite>, a wrapper taking nvim's arguments that sets
#     VIMRUNTIME and adds the bundled tree-sitter parsers to 'runtimepath'.
# Idempotent: a wrapper that already answers --version is kept.
#   usage: modern-nvim.sh [CACHE]   (default: ${FSRB_E2E_CACHE:-~/.cache/fsrb-e2e}/nvim-versions)
#   prints one wrapper path per line (trixie, then forky); versions on stderr.
set -euo pipefail
cache="${1:-${FSRB_E2E_CACHE:-$HOME/.cache/fsrb-e2e}/nvim-versions}"
suites="${FSRB_NVIM_SUITES:-trixie forky}"
mkdir -p "$cache"
cache="$(cd "$cache" && pwd)"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

. "$(dirname "$0")/debian-unpack.sh"

# What nvim 0.10/0.12 link to, by the names the suites use (a name a suite
# lacks is skipped; ldd below says if anything is still missing).
pkgs="neovim neovim-runtime libc6 libgcc-s1 libluajit-5.1-2 libluajit2-5.1-2 libunibilium4 libutf8proc3 \
lua-lpeg lua-luv libuv1t64 libuv1 libtree-sitter0.22 libtree-sitter0.23 libtree-sitter0.25 libtree-sitter0.26 \
libmsgpack-c2 libvterm0 libtermkey1"

for suite in $suites; do
  root="$cache/$suite"
  wrapper="$cache/nvim-$suite"
  if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
    echo "modern-nvim: $suite: $("$wrapper" --version | head -1) (cached)" >&2
    echo "$wrapper"
    continue
  fi
  apt="$cache/apt-$suite"
  unpack_suite modern-nvim "$suite" "$root" "$apt" neovim "$pkgs"
  lib="$root/usr/lib/x86_64-linux-gnu"
  patchelf --set-interpreter "$lib/ld-linux-x86-64.so.2" \
    --set-rpath "$lib:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu" "$root/usr/bin/nvim"
  cat >"$wrapper" <<EOF
#!/bin/sh
# Neovim from Debian $suite with $suite's own glibc (written by editors/e2e/modern-nvim.sh).
R='$root'
export VIMRUNTIME="\$R/usr/share/nvim/runtime"
exec "\$R/usr/bin/nvim" --cmd "set rtp+=\$R/usr/lib/nvim" "\$@"
EOF
  chmod +x "$wrapper"
  if ! "$wrapper" --version >/dev/null 2>&1; then
    echo "modern-nvim: $suite: the unpacked nvim does not start:" >&2
    "$wrapper" --version >&2 || true
    exit 1
  fi
  rm -rf "$apt/cache" "$apt/lists"
  echo "modern-nvim: $suite: $("$wrapper" --version | head -1)" >&2
  echo "$wrapper"
done
