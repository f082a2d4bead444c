#!/usr/bin/env node
// Trunk post_build hook (Trunk.toml, after split-module.mjs): packs the module's first part with
// LZMA, beside the plain file. A web server's gzip leaves that part at about 266 KB; LZMA (xz's,
// preset 9e, with no literal-position or position bits, which suit WebAssembly's bytes best) at
// about 212 KB. On Lighthouse's mobile network that is about a quarter of a second less before
// the page answers its first click (docs/build.md, "The first part packed").
//
// The page's loader (www/boot.js) fetches the packed file, unpacks it as it arrives
// (www/unlzma.js) and passes the bytes to the browser's streaming compiler; it falls back to the
// plain file when the browser cannot stream or the packed file fails, so both are kept.
// index.html preloads the packed one (embed-loader.mjs writes the link). The file is
// `kafka-election-playground-<hash>_bg.lzma`, the hash taken of its contents, and its header
// holds the unpacked size, which the loader needs and xz leaves unset; after the stream comes the
// CRC-32 of the unpacked bytes (4 bytes, little-endian), which the loader checks.
//
// PACK=off skips it (the page then loads the plain file). Fails the build when xz fails or the
// packed file would not be smaller.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { builtFiles, stagingDir } from './staging.mjs';

/** The CRC-32 of `bytes` (zlib's, as the loader computes it). */
function crc32(bytes) {
  let crc = -1;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ -1) >>> 0;
}

const staging = stagingDir('pack-module', 'PACK');
const { wasm } = await builtFiles('pack-module', staging);
const plain = await readFile(join(staging, wasm));
let packed;
try {
  packed = execFileSync('xz', ['--format=lzma', '--lzma1=preset=9e,lc=3,lp=0,pb=0', '--stdout'], {
    input: plain,
    maxBuffer: 1 << 28,
  });
} catch (e) {
  console.error(`pack-module: xz could not pack ${wasm} (${e.message}); www/scripts/setup.sh installs xz-utils`);
  process.exit(1);
}
// The "alone" header: properties (1 byte), dictionary size (4), unpacked size (8, little-endian;
// xz writes all ones, "unknown", and ends the stream with a marker, which the loader then skips).
if (packed.length < 13 || packed.readBigUInt64LE(5) !== 0xffffffffffffffffn) {
  console.error(`pack-module: xz wrote an unexpected header for ${wasm}`);
  process.exit(1);
}
packed.writeBigUInt64LE(BigInt(plain.length), 5);
const check = Buffer.alloc(4);
check.writeUInt32LE(crc32(plain));
packed = Buffer.concat([packed, check]);
if (packed.length >= plain.length) {
  console.error(`pack-module: packing ${wasm} gains nothing (${packed.length} of ${plain.length} bytes)`);
  process.exit(1);
}
const name = `kafka-election-playground-${createHash('sha256').update(packed).digest('hex').slice(0, 16)}_bg.lzma`;
await writeFile(join(staging, name), packed);
console.log(`pack-module: ${name} (${packed.length} bytes, from ${plain.length})`);
