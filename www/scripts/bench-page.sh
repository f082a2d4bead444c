#!/usr/bin/env bash
# Every figure of the page's benchmarks in one run, for the notes (nothing is asserted):
#
#   trunk build --release && www/scripts/bench-page.sh [RUNS]
#   REFERENCE=/path/to/raftscope www/scripts/bench-page.sh 5
#
# 1. loading (bench-page.mjs): bytes transferred, time to the first graph and to the answer to a
#    first click, on loopback and under a mobile network, medians of RUNS visits (default 5),
#    beside the reference page when REFERENCE names its folder;
# 2. the first view's weight and each file's share (budget.mjs);
# 3. frame intervals (bench-frames.mjs): p50 and p95 at 50x with 9 brokers, 12 partitions with
#    streams and 6 consumers;
# 4. the same core work natively and in wasm, and their ratio (bench-ratio.mjs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
export PATH="$HOME/.cargo/bin:$PWD/www/node_modules/.bin:$PATH"
RUNS="${1:-5}"
echo "== loading"
node www/scripts/bench-page.mjs "$RUNS"
echo
echo "== first-view weight"
node www/scripts/budget.mjs dist || true
echo
echo "== frames"
node www/scripts/bench-frames.mjs
echo
echo "== core, native and wasm"
RUNS="$RUNS" node www/scripts/bench-ratio.mjs
