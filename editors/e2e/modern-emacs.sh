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

mirror() {
  local m=""
  m=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  if [ -z "$m" ]; then
    m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '/^deb / && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' || true)
  fi
  [ -n "$m" ] || { echo "modern-emacs: no Debian mirror in this machine's apt sources" >&2; exit 1; }
  echo "$m"
}

# emacs-nox's dependencies in trixie, and theirs, by name (ldd below says
# if one is still missing).
pkgs="emacs-nox emacs-bin-common emacs-common emacs-el libc6 libacl1 libasound2t64 libattr1 libdbus-1-3 \
libgccjit0 libgmp10 libgnutls30t64 libgpm2 liblcms2-2 libselinux1 libsqlite3-0 libsystemd0 libtinfo6 \
libtree-sitter0.22 libxml2 zlib1g libp11-kit0 libidn2-0 libunistring5 libtasn1-6 libnettle8t64 \
libhogweed6t64 libffi8 libicu76 liblzma5 libcap2 liblz4-1 libzstd1 libgcrypt20 libgpg-error0 \
libpcre2-8-0 libisl23 libmpc3 libmpfr6 libgcc-s1 libstdc++6 libncursesw6"

if ! command -v patchelf >/dev/null; then
  echo "modern-emacs: apt-get install patchelf" >&2
  $SUDO apt-get install -y -qq patchelf >/dev/null 2>&1 ||
    { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq patchelf >/dev/null; }
fi
apt="$cache/apt-$suite"
rm -rf "$root" "$apt"
mkdir -p "$root" "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(mirror) $suite main" >"$apt/sources.list"
opts=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$apt/lists"
  -o "Dir::Cache=$apt/cache" -o APT::Architecture=amd64 -o Debug::NoLocking=1)
[ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
echo "modern-emacs: $suite: downloading emacs-nox and its libraries" >&2
apt-get "${opts[@]}" -qq update >&2
( cd "$apt/debs" && for p in $pkgs; do apt-get "${opts[@]}" -qq download "$p/$suite" >/dev/null 2>&1 || true; done )
ls "$apt/debs"/emacs-nox_*.deb >/dev/null 2>&1 || { echo "modern-emacs: $suite: no emacs-nox package downloaded" >&2; exit 1; }
for d in "$apt/debs"/*.deb; do dpkg-deb -x "$d" "$root"; done
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
