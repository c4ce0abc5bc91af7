import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import test from 'ava';
import { precompressSiteFiles } from '../../src/bundle/install/precompressSiteFiles.js';
import { makeTempDir } from '../helpers/testAppliance.js';

/** A version's served and encoded folders under `dir`, with `files` written into the served one. */
async function version(dir: string, files: Record<string, string>) {
  const served = join(dir, 'files');
  const encoded = join(dir, 'encoded');
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(served, path, '..'), { recursive: true });
    await writeFile(join(served, path), text);
  }
  await mkdir(encoded, { recursive: true });
  const list = Object.entries(files).map(([path, text]) => ({ path, size: Buffer.byteLength(text) }));
  return { served, encoded, list };
}

// Large site-wide files (search index, llms-full.txt) are compressed at a faster gzip level;
// whatever the level, each variant must hold exactly the file.
const LARGE = Array.from({ length: 40_000 }, (_, i) => `Line ${i} of the large file, ${(i * 7919) % 1000}.\n`).join('');
const SMALL = `<!doctype html><title>Small</title>${'<p>Words words words.</p>'.repeat(60)}`;

test('gzip and brotli variants of small and large files decompress to the file itself', async (t) => {
  const dir = await makeTempDir('enclave-precompress-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const v = await version(dir, { 'llms-full.txt': LARGE, 'guide/page.html': SMALL });
  t.true(Buffer.byteLength(LARGE) > 1024 * 1024);
  const extras = await precompressSiteFiles(v.served, v.encoded, v.list);
  for (const [path, text] of [
    ['llms-full.txt', LARGE],
    ['guide/page.html', SMALL],
  ]) {
    const gz = await readFile(join(v.encoded, `${path}.gz`));
    const br = await readFile(join(v.encoded, `${path}.br`));
    t.is(gunzipSync(gz).toString(), text, path);
    t.is(brotliDecompressSync(br).toString(), text, path);
    t.deepEqual([extras[path].gzip, extras[path].br], [gz.length, br.length], path);
  }
});

test('files linked from a base version link its variants in one pass; a file whose base variant is gone is compressed afresh', async (t) => {
  const dir = await makeTempDir('enclave-precompress-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const files = { 'a.html': SMALL, 'deep/b.html': SMALL.replace('Small', 'B'), 'c.txt': LARGE };
  const base = await version(join(dir, 'one'), files);
  const baseExtras = await precompressSiteFiles(base.served, base.encoded, base.list);
  await rm(join(base.encoded, 'deep/b.html.br'));
  const next = await version(join(dir, 'two'), files);
  const extras = await precompressSiteFiles(next.served, next.encoded, next.list, {
    base: { locate: () => ({ filesDir: base.served, encodedDir: base.encoded }), fingerprints: new Map(), extras: baseExtras },
    linked: new Set(Object.keys(files)),
  });
  const inode = async (p: string) => (await stat(p)).ino;
  for (const variant of ['a.html.gz', 'a.html.br', 'c.txt.gz', 'c.txt.br'])
    t.is(await inode(join(next.encoded, variant)), await inode(join(base.encoded, variant)), variant);
  // b's brotli variant was missing in the base: both of b's variants are new files, whole.
  t.not(await inode(join(next.encoded, 'deep/b.html.gz')), await inode(join(base.encoded, 'deep/b.html.gz')));
  t.is(brotliDecompressSync(await readFile(join(next.encoded, 'deep/b.html.br'))).toString(), files['deep/b.html']);
  t.deepEqual(extras, baseExtras);
});
