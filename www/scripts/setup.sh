#!/usr/bin/env bash
# Installs what building and testing the playground needs, on a Debian machine with rustup, Node 20
# and npm (run as root). Idempotent: every step is skipped when its tool is already there.
#
#   www/scripts/setup.sh
#
# - the wasm32-unknown-unknown target, rustfmt and clippy (rustup)
# - Trunk 0.22.1 (cargo install --locked)
# - wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock (cargo install)
# - Debian's chromium and chromium-driver (apt-get), used by the browser tests
# - Debian's zookeeper (3.8, with the JRE it pulls) and python3-kazoo (apt-get), used by the
#   ZooKeeper conformance suite (tests/zk_conformance.rs), which starts real servers from
#   /usr/share/java/zookeeper.jar and drives them with kazoo under /usr/bin/python3
# - www/node_modules (npm ci): Playwright's test runner, axe-core's Playwright scanner for the
#   accessibility tests, binaryen (wasm-opt 132) for Trunk, and esbuild, which the build's hooks
#   minify the page's scripts and stylesheet with (www/scripts/minify.mjs)
# - the crates of Cargo.lock (cargo fetch), so that Trunk's offline build finds them
# - www/split's tool (cargo build), which the build's post_build hook splits the module with
#
# Trunk finds wasm-bindgen and wasm-opt on PATH; the build and test scripts put
# www/node_modules/.bin on PATH for wasm-opt (Debian's binaryen is too old for today's wasm).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/www/node_modules/.bin:$PATH"

TRUNK_VERSION=0.22.1
WASM_OPT_VERSION=132
CHROMIUM_PACKAGES=(chromium chromium-driver)
# kazoo from Debian rather than from PyPI: Debian 12's system Python is externally managed
# (PEP 668), so `pip install kazoo` as root is refused without a virtualenv or
# --break-system-packages, while python3-kazoo (2.8.0) installs cleanly with its dependencies.
ZOOKEEPER_PACKAGES=(zookeeper python3-kazoo)

say() { printf 'setup: %s\n' "$*"; }
die() {
  printf 'setup: error: %s\n' "$*" >&2
  exit 1
}

for tool in rustup cargo node npm; do
  command -v "$tool" >/dev/null || die "$tool is missing: this machine needs rustup, cargo, node (20+) and npm"
done

# --- Rust target and components -------------------------------------------------------------
if rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "wasm32-unknown-unknown target: present"
else
  say "wasm32-unknown-unknown target: installing"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if rustup component list --installed | grep -q "^$component"; then
    say "$component: present"
  else
    say "$component: installing"
    rustup component add "$component"
  fi
done

# --- Trunk ------------------------------------------------------------------------------------
if version="$(trunk --version 2>/dev/null)"; then
  say "trunk: present ($version)"
else
  say "trunk: installing $TRUNK_VERSION (cargo install, takes about 13 minutes)"
  cargo install --locked trunk --version "$TRUNK_VERSION" --ignore-rust-version
fi

# --- wasm-bindgen-cli, at the version the crate links against -----------------------------------
bindgen_version="$(awk '
  $0 == "name = \"wasm-bindgen\"" { found = 1; next }
  found && /^version = / { gsub(/"/, "", $3); print $3; exit }
' Cargo.lock)"
[ -n "$bindgen_version" ] || die "Cargo.lock names no wasm-bindgen version"
if [ "$(wasm-bindgen --version 2>/dev/null || true)" = "wasm-bindgen $bindgen_version" ]; then
  say "wasm-bindgen-cli: present ($bindgen_version)"
else
  say "wasm-bindgen-cli: installing $bindgen_version (cargo install, takes about 5 minutes)"
  cargo install wasm-bindgen-cli --version "$bindgen_version"
fi
trunk_bindgen="$(sed -n 's/^wasm_bindgen *= *"\(.*\)".*/\1/p' Trunk.toml)"
if [ -n "$trunk_bindgen" ] && [ "$trunk_bindgen" != "$bindgen_version" ]; then
  die "Trunk.toml pins wasm_bindgen = \"$trunk_bindgen\" but Cargo.lock has wasm-bindgen $bindgen_version: make them agree"
fi

# --- Chromium for the browser tests, ZooKeeper and kazoo for the conformance suite
missing=()
for package in "${CHROMIUM_PACKAGES[@]}" "${ZOOKEEPER_PACKAGES[@]}"; do
  if [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = "install ok installed" ]; then
    say "$package: present"
  else
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]} (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi

# --- Node packages: Playwright's runner, axe-core, binaryen's wasm-opt --------------------------
# npm ci deletes and reinstalls node_modules, so it runs only when the lock changed since the last
# install (a stamp with the lock's hash) or a tool is missing.
stamp=www/node_modules/.setup-lock-hash
lock_hash="$( (cat www/package.json www/package-lock.json) | sha256sum | cut -d' ' -f1)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$lock_hash" ] &&
  [ -x www/node_modules/.bin/playwright ] && [ -x www/node_modules/.bin/wasm-opt ] &&
  [ -d www/node_modules/@axe-core/playwright ]; then
  say "www/node_modules: up to date with package-lock.json"
else
  say "www/node_modules: npm ci"
  (cd www && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --update-notifier=false)
  printf '%s\n' "$lock_hash" >"$stamp"
fi
wasm_opt_found="$(wasm-opt --version 2>/dev/null || true)"
case "$wasm_opt_found" in
  "wasm-opt version $WASM_OPT_VERSION "* | "wasm-opt version $WASM_OPT_VERSION") ;;
  *) die "wasm-opt on PATH is \"$wasm_opt_found\", not version $WASM_OPT_VERSION (expected from www/node_modules/.bin)" ;;
esac
say "wasm-opt: $wasm_opt_found"

# --- Crates ---------------------------------------------------------------------------------------
say "cargo fetch"
cargo fetch --quiet
# The tool the build's post_build hook splits the module with (www/scripts/split-module.mjs).
say "www/split: cargo build --release"
cargo build --release --quiet --manifest-path www/split/Cargo.toml --target-dir www/split/target

say "done"
