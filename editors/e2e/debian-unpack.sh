# What modern-nvim.sh and modern-emacs.sh share, sourced by both after they
# set SUDO ("" or "sudo"): a newer Debian suite's packages, downloaded with
# apt-get download against a private sources list and unpacked, without
# installing anything system-wide.

# mirror TAG: the Debian mirror this machine's apt sources use (deb822
# sources, Debian 12's default, then one-line sources).
mirror() {
  local m=""
  m=$(awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  if [ -z "$m" ]; then
    m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '/^deb / && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' || true)
  fi
  [ -n "$m" ] || { echo "$1: no Debian mirror in this machine's apt sources" >&2; exit 1; }
  echo "$m"
}

# unpack_suite TAG SUITE ROOT APT MAIN PKGS: downloads PKGS (a name the
# suite lacks is skipped) from SUITE into APT/debs, fails unless MAIN came,
# and unpacks them all under ROOT (dpkg-deb -x), both folders made afresh.
# Installs patchelf, which the callers run next, if it is missing.
unpack_suite() {
  local tag=$1 suite=$2 root=$3 apt=$4 main=$5 pkgs=$6 p d
  if ! command -v patchelf >/dev/null; then
    echo "$tag: apt-get install patchelf" >&2
    $SUDO apt-get install -y -qq patchelf >/dev/null 2>&1 ||
      { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq patchelf >/dev/null; }
  fi
  mirror_url="${mirror_url:-$(mirror "$tag")}"
  rm -rf "$root" "$apt"
  mkdir -p "$root" "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror_url $suite main" >"$apt/sources.list"
  local opts=(-o "Dir::Etc::sourcelist=$apt/sources.list" -o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$apt/lists"
    -o "Dir::Cache=$apt/cache" -o APT::Architecture=amd64 -o Debug::NoLocking=1)
  [ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
  echo "$tag: $suite: downloading $main and its libraries" >&2
  apt-get "${opts[@]}" -qq update >&2
  ( cd "$apt/debs" && for p in $pkgs; do apt-get "${opts[@]}" -qq download "$p/$suite" >/dev/null 2>&1 || true; done )
  ls "$apt/debs/${main}"_*.deb >/dev/null 2>&1 || { echo "$tag: $suite: no $main package downloaded" >&2; exit 1; }
  for d in "$apt/debs"/*.deb; do dpkg-deb -x "$d" "$root"; done
}
