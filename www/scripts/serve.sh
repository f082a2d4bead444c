#!/usr/bin/env bash
# Builds the release bundle and serves the playground on http://127.0.0.1:$PORT/ (default 8080).
# It listens on 127.0.0.1 only.
#
#   www/scripts/serve.sh            # trunk build --release, then a static server for dist/
#   www/scripts/serve.sh --watch    # trunk serve --release: rebuilds and reloads on every change
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/www/node_modules/.bin:$PATH"

PORT="${PORT:-8080}"
case "$PORT" in
  '' | *[!0-9]*)
    echo "serve: PORT must be a number, got \"$PORT\"" >&2
    exit 2
    ;;
esac
mode=static
case "${1:-}" in
  '') ;;
  --watch) mode=watch ;;
  -h | --help)
    sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  *)
    echo "serve: unknown option \"$1\" (try --help)" >&2
    exit 2
    ;;
esac

bash www/scripts/setup.sh

url="http://127.0.0.1:$PORT/"
if [ "$mode" = watch ]; then
  echo "serve: trunk serve --release (rebuilds on change)"
  echo "Playground: $url"
  exec trunk serve --release --address 127.0.0.1 --port "$PORT" --open=false
fi

echo "serve: trunk build --release"
trunk build --release
echo "serve: serving dist/ (Ctrl-C stops it)"
PORT="$PORT" DIST="$ROOT/dist" exec node www/tests/serve-dist.mjs
