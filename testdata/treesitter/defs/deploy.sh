#!/usr/bin/env bash
set -euo pipefail

deploy() {
  echo "deploying $1"
# ^ chain: function deploy
# ^ describe: function deploy
}

function cleanup {
  rm -rf /tmp/build
# ^ chain: function cleanup
}

deploy "$@"
# ^ chain: -
