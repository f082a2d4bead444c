// The module's first part packed with LZMA (www/scripts/pack-module.mjs): the page fetches the
// packed file, unpacks it as it arrives (www/unlzma.js, inside boot.js) and compiles what comes
// out; when the packed file is missing or damaged it loads the plain file instead, and says
// nothing to the learner, because nothing is lost.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as plain, type Page } from '@playwright/test';
import { expect, logEntries, mounted } from './playground';

const dist = process.env.DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));
const files = readdirSync(dist);
const only = (re: RegExp) => {
  const found = files.filter((f) => re.test(f));
  expect(found, `one file matching ${re}`).toHaveLength(1);
  return found[0];
};
const packedName = () => only(/^kafka-election-playground-[0-9a-f]+_bg\.lzma$/);
const plainName = () => only(/^kafka-election-playground-[0-9a-f]+_bg\.wasm$/);

type Decoder = { push(bytes: Uint8Array): Uint8Array; end(): Uint8Array };
/** The decoder as boot.js carries it: the file alone, its one function taken out. */
const unlzma = new Function(
  `${readFileSync(new URL('../unlzma.js', import.meta.url), 'utf8')}\nreturn unlzma;`,
)() as () => Decoder;

/** `bytes` unpacked, pushed `chunk` bytes at a time. */
function unpack(bytes: Uint8Array, chunk: number): Buffer {
  const decoder = unlzma();
  const parts: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += chunk) parts.push(decoder.push(bytes.subarray(i, i + chunk)));
  parts.push(decoder.end());
  return Buffer.concat(parts);
}

plain('the packed first part unpacks to the plain one, byte for byte, however its bytes arrive', () => {
  const packed = readFileSync(join(dist, packedName()));
  const original = readFileSync(join(dist, plainName()));
  expect(packed.length, 'the packed file is smaller').toBeLessThan(original.length * 0.5);
  for (const chunk of [packed.length, 65_536, 1_400, 97, 1]) {
    expect(unpack(packed, chunk).equals(original), `pushed ${chunk} bytes at a time`).toBe(true);
  }
});

plain('index.html preloads the packed file; the loader names both, the plain one to fall back on', () => {
  const index = readFileSync(join(dist, 'index.html'), 'utf8');
  expect(index).toContain(`<link rel="preload" href="./${packedName()}" as="fetch" crossorigin="anonymous"`);
  expect(index).not.toContain(plainName());
  const boot = readFileSync(join(dist, only(/^boot-[0-9a-f]+\.js$/)), 'utf8');
  expect(boot).toContain(packedName());
  expect(boot).toContain(plainName());
});

plain('a packed file that is damaged, cut short or not LZMA at all is refused, never unpacked into wrong bytes', () => {
  const packed = readFileSync(join(dist, packedName()));
  const refused = (bytes: Uint8Array, chunk = 4096) => {
    let error: unknown = null;
    try {
      unpack(bytes, chunk);
    } catch (e) {
      error = e;
    }
    expect(error, `${bytes.length} bytes refused`).toBeInstanceOf(Error);
    expect(String(error)).toContain('the packed module is not well formed');
  };
  // A byte changed here and there in the stream (never in the header, whose size is checked
  // below): every one is caught, by the decoder or by the checksum.
  for (const at of [14, 100, 5_000, Math.floor(packed.length / 2), packed.length - 30, packed.length - 2]) {
    const damaged = Buffer.from(packed);
    damaged[at] ^= 0x5a;
    refused(damaged);
  }
  refused(packed.subarray(0, packed.length - 300)); // cut short
  refused(packed.subarray(0, packed.length - 2)); // the checksum cut
  refused(packed.subarray(0, 10)); // shorter than the header
  refused(new Uint8Array(0));
  refused(readFileSync(join(dist, plainName()))); // the plain module: its first byte is no LZMA header
  const unknownSize = Buffer.from(packed);
  unknownSize.fill(0xff, 5, 13); // as xz writes it: no unpacked size
  refused(unknownSize);
});

/** Every module file the page asked for, by name. */
function watchModules(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (r) => {
    const name = new URL(r.url()).pathname.split('/').pop() ?? '';
    if (/_bg\.(wasm|lzma)$/.test(name)) asked.push(name);
  });
  return asked;
}

for (const address of ['/?lang=en', '/?lang=en&speed=50']) {
  plain(`the page at ${address} compiles its module from the packed file alone`, async ({ page }) => {
    const asked = watchModules(page);
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
    });
    await page.goto(address);
    await mounted(page);
    await expect(logEntries(page, 'controller_elected').first()).toBeVisible();
    expect(asked).toEqual([packedName()]);
    expect(warnings.filter((w) => /packed/i.test(w))).toEqual([]);
    await expect(page.locator('#fatal')).toBeHidden();
  });
}

for (const [what, answer] of [
  ['damaged', 'damaged'],
  ['missing (HTTP 404)', 404],
  ['not LZMA (the plain module under its name)', 'plain'],
] as const) {
  plain(`when the packed file is ${what}, the page loads the plain module and starts as usual`, async ({ page }) => {
    const asked = watchModules(page);
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning') warnings.push(m.text());
    });
    await page.route(/_bg\.lzma$/, async (route) => {
      if (answer === 404) return route.fulfill({ status: 404, body: 'not found' });
      const body =
        answer === 'plain' ? readFileSync(join(dist, plainName())) : Buffer.from(readFileSync(join(dist, packedName())));
      if (answer === 'damaged') body[Math.floor(body.length / 2)] ^= 0x5a;
      return route.fulfill({ status: 200, body, contentType: 'application/octet-stream' });
    });
    await page.goto('/?lang=en');
    await mounted(page);
    await expect(logEntries(page, 'controller_elected').first()).toBeVisible();
    expect(asked).toEqual([packedName(), plainName()]);
    expect(warnings.some((w) => w.includes('The packed module did not load') && w.includes(plainName()))).toBe(true);
    await expect(page.locator('#fatal')).toBeHidden();
  });
}
