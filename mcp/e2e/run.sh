#!/usr/bin/env bash
# End-to-end test of "fsrb mcp" from a client that is not ours: the
# official TypeScript SDK's (@modelcontextprotocol/sdk, pinned by
# package-lock.json). Builds fsrb and fsrb-mcp, installs the client (npm
# ci, once per lockfile), and runs client.test.mjs against "fsrb mcp" over
# stdio.
# Needs Go, Node >= 18 and npm. `make e2e-mcp` runs it; `make e2e` too.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
# fsrb mcp execs the fsrb-mcp beside it, as `make install` puts them.
(cd "$repo" && go build -o "$bin/" ./cmd/fsrb ./cmd/fsrb-mcp)
cd "$here"
stamp="node_modules/.fsrb-lock-$(sha256sum package-lock.json | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi
echo "== fsrb mcp e2e: $(node --version), @modelcontextprotocol/sdk $(node -p 'require("./node_modules/@modelcontextprotocol/sdk/package.json").version')"
FSRB="$bin/fsrb" node --test --test-reporter=spec client.test.mjs
