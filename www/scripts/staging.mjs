// What the build's post_build hooks (Trunk.toml: split-module.mjs, embed-loader.mjs,
// first-frame.mjs, compress.mjs) share: the staging folder Trunk hands them, and the module files Trunk built
// into it.
import { readdir } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * Trunk's staging folder, for hook `name`. Exits when it is not set (the script was not run by
 * Trunk), and, when `skip` names an environment variable set to `off`, exits at once with a
 * word that the hook was skipped.
 */
export function stagingDir(name, skip) {
  const dir = process.env.TRUNK_STAGING_DIR;
  if (!dir) {
    console.error(`${name}: TRUNK_STAGING_DIR is not set: run this as Trunk's post_build hook`);
    process.exit(1);
  }
  if (skip && process.env[skip] === 'off') {
    console.log(`${name}: skipped (${skip}=off)`);
    process.exit(0);
  }
  return resolve(dir);
}

/** The module glue, the wasm and the stylesheet in `dir`: exits unless there is one of each. */
export async function builtFiles(name, dir) {
  const files = await readdir(dir);
  const patterns = {
    glue: /^kafka-election-playground-[0-9a-f]+\.js$/,
    wasm: /^kafka-election-playground-[0-9a-f]+_bg\.wasm$/,
    css: /^styles-[0-9a-f]+\.css$/,
  };
  const found = Object.fromEntries(Object.entries(patterns).map(([k, re]) => [k, files.filter((f) => re.test(f))]));
  if (Object.values(found).some((list) => list.length !== 1)) {
    console.error(`${name}: expected one module glue, one wasm and one stylesheet in ${dir}, found ${JSON.stringify(found)}`);
    process.exit(1);
  }
  return { glue: found.glue[0], wasm: found.wasm[0], css: found.css[0] };
}
