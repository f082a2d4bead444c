#!/usr/bin/env bash
# Runs every check of the project, in order, stopping at the first that fails:
# setup, rustfmt, clippy (native and wasm32), cargo doc (native and wasm32), cargo test (native, then the wasm32 determinism test
# under wasm-bindgen-test-runner in Node), the ZooKeeper conformance suite (the model against real
# ZooKeeper 3.8 servers it starts on 127.0.0.1; it fails when ZooKeeper or kazoo is missing), the
# split tool's own checks (www/split), the release bundle (Trunk), the first view's byte budget (www/scripts/budget.mjs, dist/size.txt) and
# the browser tests (Playwright on Debian's Chromium).
#
#   www/scripts/test.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/www/node_modules/.bin:$PATH"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1

LOGS="$ROOT/target/test-logs"
mkdir -p "$LOGS"

started=$SECONDS
timings=()
steps_passed=0
steps_total=12

# step NAME COMMAND...: runs one step, prints its time, stops everything when it fails.
step() {
  local name="$1"
  shift
  local begin=$SECONDS
  printf '\n==> %s\n' "$name"
  local status=0
  "$@" || status=$?
  local took=$((SECONDS - begin))
  if [ "$status" -ne 0 ]; then
    printf '\nFAILED: step "%s" (exit %d, after %ds)\n' "$name" "$status" "$took" >&2
    summary
    printf 'test.sh: %d of %d steps passed; failed at "%s"\n' "$steps_passed" "$steps_total" "$name" >&2
    exit "$status"
  fi
  timings+=("$(printf '%5ds  %s' "$took" "$name")")
  steps_passed=$((steps_passed + 1))
  printf -- '--- ok: %s (%ds)\n' "$name" "$took"
}

summary() {
  printf '\nTimings:\n'
  local line
  for line in "${timings[@]}"; do printf '  %s\n' "$line"; done
  printf '  %5ds  total\n' "$((SECONDS - started))"
}

# The API documentation builds without a warning (broken links, links to private items, missing
# docs), for the core natively and for the page in wasm32.
cargo_docs() {
  RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib &&
    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --lib --target wasm32-unknown-unknown
}

# Every Rust test but the ZooKeeper conformance suite, which has a step of its own.
cargo_tests() {
  cargo test -- --skip the_model_answers_as_zookeeper 2>&1 | tee "$LOGS/cargo-test.log"
}

# The model's ZooKeeper against real ZooKeeper 3.8 servers (tests/zk_conformance.rs): one server
# per sequence, started and stopped by tests/zk-conformance/driver.py; prints the real server's
# granted timeouts and expiry delays. About half a minute, mostly sessions left to expire.
zk_conformance() {
  cargo test --test zk_conformance -- --nocapture 2>&1 | tee "$LOGS/zk-conformance.log"
}

# The wasm build replays the native golden traces (tests/wasm_determinism.rs), run by
# wasm-bindgen-test-runner (installed with wasm-bindgen-cli) in Node.
cargo_wasm_tests() {
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo test --target wasm32-unknown-unknown --test wasm_determinism 2>&1 | tee "$LOGS/cargo-test-wasm.log"
}

# The split tool (www/split) is a workspace of its own, which the steps above do not see: its
# format, lints and tests (how it reads the linker's map and which data it moves).
split_tool() {
  local args=(--release --manifest-path www/split/Cargo.toml --target-dir www/split/target)
  cargo fmt --manifest-path www/split/Cargo.toml -- --check &&
    cargo clippy "${args[@]}" --all-targets -- -D warnings &&
    cargo test "${args[@]}" 2>&1 | tee "$LOGS/split-tool.log"
}

trunk_build() {
  rm -rf dist
  trunk build --release
}

# What the first view weighs (www/scripts/budget.mjs): each file's share, failing over the limit.
size_report() {
  node www/scripts/budget.mjs dist | tee "$LOGS/size.txt"
}

browser_tests() {
  # A free port for the test server, so that a second run (or a served playground) does not collide.
  local port="${PLAYWRIGHT_PORT:-$(node -e "
    const server = require('node:net').createServer();
    server.listen(0, '127.0.0.1', () => { console.log(server.address().port); server.close(); });")}"
  (cd www && PLAYWRIGHT_PORT="$port" playwright test) 2>&1 | tee "$LOGS/playwright.log"
}

step "setup (www/scripts/setup.sh)" bash www/scripts/setup.sh
step "cargo fmt --check" cargo fmt --all -- --check
step "cargo clippy (native)" cargo clippy --all-targets -- -D warnings
step "cargo clippy (wasm32)" cargo clippy --target wasm32-unknown-unknown --lib --bins -- -D warnings
step "cargo doc (native and wasm32, warnings are errors)" cargo_docs
step "cargo test" cargo_tests
step "cargo test (wasm32)" cargo_wasm_tests
step "ZooKeeper conformance (real ZooKeeper 3.8)" zk_conformance
step "split tool: fmt, clippy, tests (www/split)" split_tool
step "trunk build --release" trunk_build
step "first-view byte budget (www/scripts/budget.mjs)" size_report
step "browser tests (Playwright)" browser_tests

summary
# Counts of the tests that ran: cargo's "test result" lines and Playwright's closing line.
rust_passed=$(awk '/^test result: ok\./ { sum += $4 } END { print sum + 0 }' "$LOGS/cargo-test.log" "$LOGS/cargo-test-wasm.log" "$LOGS/zk-conformance.log" "$LOGS/split-tool.log")
browser_passed=$(sed -n 's/^ *\([0-9]*\) passed.*/\1/p' "$LOGS/playwright.log" | tail -n 1)
printf '\nAll %d steps passed: %d Rust tests, %d browser tests.\n' "$steps_passed" "${rust_passed:-0}" "${browser_passed:-0}"
printf 'tests: %d passed, 0 failed\n' "$(( ${rust_passed:-0} + ${browser_passed:-0} ))"
