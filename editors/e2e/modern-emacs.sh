#!/usr/bin/env bash
# Emacs 30 for the e2e test on a Debian 12 machine (whose Emacs is 28.2),
# without installing anything system-wide, the way modern-nvim.sh gets
# Neovim: Debian trixie's emacs-nox, its Lisp, and the libraries it links
# to, glibc included, downloaded with apt-get download against a private
# sources list (the mirror this machine's apt uses), unpacked under
# CACHE/trixie (dpkg-deb -x), the binary pointed at the unpacked loader and
# libraries (patchelf; DT_RPATH, which the libraries' own dependencies
# follow too), and CACHE/emacs-trixie, a wrapper that names Emacs's data,
# Lisp and dump file, as the installed paths it was built with do not
# exist here. Native compilation has no gcc here: fine for loading the
# shipped .eln files, which is all the test needs.
# Idempotent: a wrapper that already answers --version is kept.
#   usage: modern-emacs.sh [CACHE]   (default: ${FSRB_E2E_CACHE:-~/.cache/fsrb-e2e}/emacs-versions)
#   prints the wrapper's path; the version on stderr.
set -euo pipefail
cache="${1:-${FSRB_E2E_CACHE:-$HOME/.cache/fsrb-e2e}/emacs-versions}"
suite=trixie
mkdir -p "$cache"
cache="$(cd "$cache" && pwd)"
root="$cache/$suite"
wrapper="$cache/emacs-$suite"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

if [ -x "$wrapper" ] && "$wrapper" --version >/dev/null 2>&1; then
  echo "modern-emacs: $("$wrapper" --version | head -1) (cached)" >&2
  echo "$wrapper"
  exit 0
fi

. "$(dirname "$0")/debian-unpack.sh"

# emacs-nox's dependencies in trixie, and theirs, by name (ldd below says
# if one is still missing).
pkgs="emacs-nox emacs-bin-common emacs-common emacs-el libc6 libacl1 libasound2t64 libattr1 libdbus-1-3 \
libgccjit0 libgmp10 libgnutls30t64 libgpm2 liblcms2-2 libselinux1 libsqlite3-0 libsystemd0 libtinfo6 \
libtree-sitter0.22 libxml2 zlib1g libp11-kit0 libidn2-0 libunistring5 libtasn1-6 libnettle8t64 \
libhogweed6t64 libffi8 libicu76 liblzma5 libcap2 liblz4-1 libzstd1 libgcrypt20 libgpg-error0 \
libpcre2-8-0 libisl23 libmpc3 libmpfr6 libgcc-s1 libstdc++6 libncursesw6"

apt="$cache/apt-$suite"
unpack_suite modern-emacs "$suite" "$root" "$apt" emacs-nox "$pkgs"
lib="$root/usr/lib/x86_64-linux-gnu"
patchelf --set-interpreter "$lib/ld-linux-x86-64.so.2" --force-rpath \
  --set-rpath "$lib:/usr/lib/x86_64-linux-gnu:/lib/x86_64-linux-gnu" "$root/usr/bin/emacs-nox"
ver=$(ls "$root/usr/share/emacs" | grep -E '^[0-9]+\.[0-9]+' | head -1)
cat >"$wrapper" <<EOF2
#!/bin/sh
# Emacs $ver from Debian $suite with $suite's own glibc (written by editors/e2e/modern-emacs.sh).
R='$root'
export EMACSDATA="\$R/usr/share/emacs/$ver/etc" EMACSPATH="\$R/usr/libexec/emacs/$ver/x86_64-linux-gnu"
export EMACSLOADPATH="\$R/usr/share/emacs/$ver/lisp:\$R/usr/share/emacs/$ver/site-lisp"
exec "\$R/usr/bin/emacs-nox" --dump-file="\$(echo "\$R"/usr/libexec/emacs/$ver/x86_64-linux-gnu/emacs-*.pdmp)" "\$@"
EOF2
chmod +x "$wrapper"
if ! "$wrapper" --batch --eval '(require (quote eglot))' >/dev/null 2>&1; then
  echo "modern-emacs: $suite: the unpacked emacs does not start or has no eglot:" >&2
  "$wrapper" --batch --eval '(require (quote eglot))' >&2 || true
  exit 1
fi
rm -rf "$apt/cache" "$apt/lists"
echo "modern-emacs: $suite: $("$wrapper" --version | head -1)" >&2
echo "$wrapper"
