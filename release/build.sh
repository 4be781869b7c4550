#!/usr/bin/env bash
# `make dist`: the release files, in dist/ (DIST):
#   fsrb-VERSION-linux-amd64.tar.gz, fsrb-VERSION-linux-arm64.tar.gz,
#   fsrb-VERSION-windows-amd64.zip: fsrb, fsrb-lsp and fsrb-mcp (static),
#     LICENSE, README.md (release/README.md) and the example patch, under
#     one folder named like the archive;
#   fsrb-vscode-VERSION-linux-x64.vsix, fsrb-vscode-VERSION-linux-arm64.vsix:
#     the VS Code extension with that platform's fsrb-lsp and fsrb-mcp inside
#     (editors/vscode/scripts/package-target.sh, given the servers built here);
#   SHA256SUMS: sha256sum's format, for `sha256sum -c --ignore-missing`.
# A plain script, not a release tool: every build is one `go build` with a
# cross compiler in CC and CXX, and the archives are tar and zip.
#
# The grammars are cgo: linux-arm64 needs Debian's gcc-aarch64-linux-gnu,
# g++-aarch64-linux-gnu and libc6-dev-arm64-cross (its static libc),
# windows-amd64 gcc-mingw-w64-x86-64 and g++-mingw-w64-x86-64; the vsix
# files need Node and editors/vscode's node_modules (make dist installs
# them). Env: GO, VERSION (default git describe), DIST, TARGETS and VSIX
# (subsets of the defaults below; VSIX= builds none).
set -euo pipefail
cd "$(dirname "$0")/.."
GO="${GO:-go}"
VERSION="${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo devel)}"
DIST="${DIST:-dist}"
TARGETS="${TARGETS-linux-amd64 linux-arm64 windows-amd64}"
VSIX="${VSIX-linux-x64 linux-arm64}"
# The archives' dates: the commit's, so that one commit gives the same bytes.
EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}"
export CGO_CFLAGS="${CGO_CFLAGS:--O2 -g -w}" CGO_CXXFLAGS="${CGO_CXXFLAGS:--O2 -g -w}"

compilers() { # target -> "goos goarch cc cxx ext"
  case "$1" in
    linux-amd64)   echo "linux amd64 ${CC_LINUX_AMD64:-gcc} ${CXX_LINUX_AMD64:-g++} -" ;;
    linux-arm64)   echo "linux arm64 aarch64-linux-gnu-gcc aarch64-linux-gnu-g++ -" ;;
    windows-amd64) echo "windows amd64 x86_64-w64-mingw32-gcc x86_64-w64-mingw32-g++ .exe" ;;
    *) echo "release/build.sh: unknown target '$1' (linux-amd64, linux-arm64, windows-amd64)" >&2; return 2 ;;
  esac
}

mkdir -p "$DIST"
DIST=$(cd "$DIST" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

for t in $TARGETS; do
  read -r goos goarch cc cxx ext <<<"$(compilers "$t")"
  [ "$ext" = - ] && ext=""
  for c in "$cc" "$cxx"; do
    command -v "$c" >/dev/null || { echo "release/build.sh: $t needs the compiler $c (Debian: see the top of this script)" >&2; exit 1; }
  done
  name="fsrb-$VERSION-$t"
  dir="$stage/$name"
  mkdir -p "$dir"
  start=$(date +%s)
  # Static everywhere: no glibc version to match, no MinGW DLLs beside the
  # .exe; netgo,osusergo keep glibc's NSS, which a static binary cannot
  # load, out of it.
  CGO_ENABLED=1 GOOS=$goos GOARCH=$goarch CC=$cc CXX=$cxx "$GO" build -trimpath -tags netgo,osusergo \
    -ldflags "-s -w -X main.version=$VERSION -linkmode external -extldflags -static" \
    -o "$dir/" ./cmd/fsrb ./cmd/fsrb-lsp ./cmd/fsrb-mcp
  echo "release/build.sh: built $t in $(($(date +%s) - start))s"
  cp LICENSE "$dir/LICENSE"
  sed "s/@VERSION@/$VERSION/g; s/@TARGET@/$t/g" release/README.md >"$dir/README.md"
  mkdir -p "$dir/example"
  cp testdata/example/example.fsrb "$dir/example/"
  cp -R testdata/example/project "$dir/example/project"
  find "$dir" -exec touch -h -d "@$EPOCH" {} +
  if [ "$goos" = windows ]; then
    rm -f "$DIST/$name.zip"
    (cd "$stage" && find "$name" | LC_ALL=C sort | zip -X -q -9 "$DIST/$name.zip" -@)
  else
    tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$EPOCH" -cf - "$name" |
      gzip -9n >"$DIST/$name.tar.gz"
  fi
done

for v in $VSIX; do
  case "$v" in
    linux-x64) t=linux-amd64 ;;
    linux-arm64) t=linux-arm64 ;;
    *) echo "release/build.sh: no archive target for the vsix '$v' (linux-x64, linux-arm64)" >&2; exit 2 ;;
  esac
  server="$stage/fsrb-$VERSION-$t/fsrb-lsp"
  [ -f "$server" ] || { echo "release/build.sh: the $v vsix needs the $t build (TARGETS)" >&2; exit 1; }
  FSRB_SERVER_BIN="$server" VERSION="$VERSION" GO="$GO" bash editors/vscode/scripts/package-target.sh "$v"
  mv "editors/vscode/fsrb-$v.vsix" "$DIST/fsrb-vscode-$VERSION-$v.vsix"
done

cd "$DIST"
files=()
for f in "fsrb-$VERSION"-* "fsrb-vscode-$VERSION"-*; do [ -f "$f" ] && files+=("$f"); done
sha256sum "${files[@]}" >SHA256SUMS
ls -l "${files[@]}" | awk '{printf "release/build.sh: %-48s %6.1f MB\n", $NF, $5/1e6}'
