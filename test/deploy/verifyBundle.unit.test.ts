import test from 'ava';
import { readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BundleRefusedError } from '../../src/bundle/BundleRefusedError.js';
import { extractBundle } from '../../src/bundle/install/extractBundle.js';
import type { BundleLimits } from '../../src/bundle/install/verifyBundle.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { buildRawZip, makeManifest, makeSiteFiles, writeBundle, writeRawBundle, type RawEntry } from './helpers/testBundles.js';

const limits: BundleLimits = {
  maxBundleBytes: 64 * 1024 * 1024,
  maxEntries: 1000,
  maxExtractedBytes: 256 * 1024 * 1024,
  maxCompressionRatio: 200,
};

async function setup(t: { teardown(fn: () => Promise<void>): void }) {
  const dir = await makeTempDir('enclave-verify-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return { dir, zip: join(dir, 'bundle.zip'), out: join(dir, 'out', 'files') };
}

test('a well-formed adm-zip bundle extracts byte for byte, manifest checked', async (t) => {
  const { zip, out } = await setup(t);
  const files = await writeBundle(zip, '2026-03-01.aaaa');
  const result = await extractBundle(zip, out, limits, '2026-03-01.aaaa');
  t.is(result.manifest.version, '2026-03-01.aaaa');
  t.is(result.fileCount, Object.keys(files).length);
  for (const [path, data] of Object.entries(files)) t.deepEqual(await readFile(join(out, path)), data, path);
  await t.throwsAsync(stat(join(out, '_enclave/manifest.json')), undefined, 'the manifest itself is not extracted into the site');
});

test('the hand-built writer makes valid bundles too (so the refusals below are about the one defect)', async (t) => {
  const { zip, out } = await setup(t);
  await writeRawBundle(zip, 'v1');
  const result = await extractBundle(zip, out, limits, null);
  t.is(result.manifest.version, 'v1');
});

const rawCases: { title: string; mutate: (entries: RawEntry[]) => RawEntry[]; reason: RegExp; manifestExtra?: Record<string, Buffer> }[] = [
  {
    title: '`../` entry',
    mutate: (e) => [...e, { name: '../evil.html', data: Buffer.from('x') }],
    reason: /unsafe entry name "\.\.\/evil\.html": contains a "\.\." segment/,
  },
  {
    title: 'nested `..` entry',
    mutate: (e) => [...e, { name: 'a/../../evil.html', data: Buffer.from('x') }],
    reason: /contains a "\.\." segment/,
  },
  { title: 'absolute entry', mutate: (e) => [...e, { name: '/etc/evil', data: Buffer.from('x') }], reason: /absolute path/ },
  { title: 'backslash entry', mutate: (e) => [...e, { name: '..\\evil.html', data: Buffer.from('x') }], reason: /backslash/ },
  { title: 'drive-letter entry', mutate: (e) => [...e, { name: 'C:/evil.html', data: Buffer.from('x') }], reason: /drive letter/ },
  {
    title: 'NUL in a name',
    mutate: (e) => [...e, { name: Buffer.from('ok.html\0.png', 'latin1'), data: Buffer.from('x') }],
    reason: /NUL byte/,
  },
  { title: 'empty segment', mutate: (e) => [...e, { name: 'a//b.html', data: Buffer.from('x') }], reason: /empty path segment/ },
  {
    title: 'invalid UTF-8 name',
    mutate: (e) => [...e, { name: Buffer.from([0x61, 0xff, 0x62]), data: Buffer.from('x') }],
    reason: /not valid UTF-8/,
  },
  {
    title: 'symlink entry',
    mutate: (e) => [...e, { name: 'link.html', data: Buffer.from('/etc/passwd'), externalAttributes: (0o120777 << 16) >>> 0 }],
    reason: /symlink entry "link\.html"/,
  },
  {
    title: 'symlink entry with a forged host byte',
    mutate: (e) => [...e, { name: 'link.html', data: Buffer.from('/etc/passwd'), externalAttributes: (0o120777 << 16) >>> 0, madeByOs: 0 }],
    reason: /symlink entry/,
  },
  {
    title: 'device entry',
    mutate: (e) => [...e, { name: 'dev.html', data: Buffer.from(''), externalAttributes: (0o020666 << 16) >>> 0 }],
    reason: /device or special file/,
  },
  {
    title: 'duplicate entry',
    mutate: (e) => [...e, { name: 'index.html', data: Buffer.from('<p>evil twin</p>') }],
    reason: /duplicate entry "index\.html"/,
  },
  {
    title: 'case-insensitive duplicate',
    mutate: (e) => [...e, { name: 'INDEX.html', data: Buffer.from('x') }],
    reason: /differ only in letter case/,
  },
  {
    title: 'file shadowing a directory',
    mutate: (e) => [...e, { name: 'guides', data: Buffer.from('x') }],
    reason: /lies inside the file "guides"/,
  },
  {
    title: 'declared size differs from the manifest',
    mutate: (e) => e.map((x) => (x.name === 'index.html' ? { ...x, declaredSize: 10 } : x)),
    reason: /size of "index\.html" does not match the manifest/,
  },
  {
    title: 'local header names another file',
    mutate: (e) => e.map((x) => (x.name === 'llms.txt' ? { ...x, localName: 'llms.TXT' } : x)),
    reason: /different name in its local header/,
  },
  {
    title: 'missing manifest',
    mutate: (e) => e.filter((x) => x.name !== '_enclave/manifest.json'),
    reason: /manifest _enclave\/manifest\.json is missing/,
  },
  {
    title: 'file not in the manifest',
    mutate: (e) => [...e, { name: 'extra.html', data: Buffer.from('<p>smuggled</p>') }],
    reason: /"extra\.html" is in the zip but not in the manifest/,
  },
  {
    title: 'file in the manifest but not in the zip',
    mutate: (e) => e.filter((x) => x.name !== 'llms.txt'),
    reason: /"llms\.txt" is in the manifest but missing from the zip/,
  },
  {
    title: 'tampered file',
    mutate: (e) =>
      e.map((x) =>
        x.name === 'guides/start.html' ? { ...x, data: Buffer.from(x.data.toString().replace('Getting started', 'Getting STARTED')) } : x,
      ),
    reason: /SHA-256 of "guides\/start\.html" does not match the manifest/,
  },
  {
    title: 'manifest that is not JSON',
    mutate: (e) => e.map((x) => (x.name === '_enclave/manifest.json' ? { ...x, data: Buffer.from('{nope') } : x)),
    reason: /not valid JSON/,
  },
  {
    title: 'manifest missing fields',
    mutate: (e) => e.map((x) => (x.name === '_enclave/manifest.json' ? { ...x, data: Buffer.from('{"formatVersion":1}') } : x)),
    reason: /manifest _enclave\/manifest\.json is malformed: .*domain/,
  },
  {
    title: 'unknown compression method',
    mutate: (e) => e.map((x) => (x.name === 'llms.txt' ? { ...x, method: 12 } : x)),
    reason: /unsupported compression method 12/,
  },
];

for (const c of rawCases) {
  test(`refused: ${c.title}`, async (t) => {
    const { zip, out } = await setup(t);
    await writeRawBundle(zip, 'v1', c.mutate);
    const err = await t.throwsAsync(extractBundle(zip, out, limits, null), { instanceOf: BundleRefusedError });
    t.regex(err!.reason, c.reason);
  });
}

test('refused: zip bomb (per-entry compression ratio), before anything is inflated', async (t) => {
  const { zip, out } = await setup(t);
  const bomb = Buffer.alloc(50 * 1024 * 1024); // deflates to ~50 KB: ratio ~1000:1
  await writeRawBundle(zip, 'v1', (e) => [...e, { name: 'bomb.html', data: bomb }], { ...makeSiteFiles('v1'), 'bomb.html': bomb });
  const err = await t.throwsAsync(extractBundle(zip, out, limits, null), { instanceOf: BundleRefusedError });
  t.regex(err!.reason, /entry "bomb\.html" has compression ratio \d+:1 \(limit 200:1; possible zip bomb\)/);
  t.deepEqual(await readdir(join(out, '..')).catch(() => []), [], 'nothing was extracted');
});

test('refused: total uncompressed size over the cap, and too many entries', async (t) => {
  const { zip, out } = await setup(t);
  await writeRawBundle(zip, 'v1');
  const big = await t.throwsAsync(extractBundle(zip, out, { ...limits, maxExtractedBytes: 4000 }, null), {
    instanceOf: BundleRefusedError,
  });
  t.regex(big!.reason, /total uncompressed size exceeds 4000 bytes/);
  const many = await t.throwsAsync(extractBundle(zip, out, { ...limits, maxEntries: 5 }, null), { instanceOf: BundleRefusedError });
  t.regex(many!.reason, /too many entries: 14 \(limit 5\)/);
  const huge = await t.throwsAsync(extractBundle(zip, out, { ...limits, maxBundleBytes: 1000 }, null), { instanceOf: BundleRefusedError });
  t.regex(huge!.reason, /bundle is \d+ bytes \(limit 1000\)/);
});

test('refused: truncated zip and trailing garbage', async (t) => {
  const { zip, out } = await setup(t);
  await writeBundle(zip, 'v1');
  const whole = await readFile(zip);
  await writeFile(zip, whole.subarray(0, Math.floor(whole.length / 2)));
  const cut = await t.throwsAsync(extractBundle(zip, out, limits, null), { instanceOf: BundleRefusedError });
  t.regex(cut!.reason, /truncated/);
  await writeFile(zip, whole.subarray(0, whole.length - 5));
  t.regex((await t.throwsAsync(extractBundle(zip, out, limits, null), { instanceOf: BundleRefusedError }))!.reason, /truncated|corrupt/);
  await writeFile(zip, Buffer.concat([whole, Buffer.from('garbage')]));
  t.regex(
    (await t.throwsAsync(extractBundle(zip, out, limits, null), { instanceOf: BundleRefusedError }))!.reason,
    /truncated|padded|end-of-central-directory/,
  );
  await writeFile(zip, Buffer.from('this is not a zip at all, just text'));
  t.regex((await t.throwsAsync(extractBundle(zip, out, limits, null), { instanceOf: BundleRefusedError }))!.reason, /not a zip/);
});

test('refused: an entry that inflates past the size both headers and the manifest declare', async (t) => {
  const { zip, out } = await setup(t);
  const files = makeSiteFiles('v1');
  await writeRawBundle(zip, 'v1', (e) => e.map((x) => (x.name === 'index.html' ? { ...x, declaredSize: 200 } : x)), {
    ...files,
    'index.html': files['index.html'].subarray(0, 200),
  });
  const err = await t.throwsAsync(extractBundle(zip, out, limits, null), { instanceOf: BundleRefusedError });
  t.regex(err!.reason, /entry "index\.html" inflates beyond its declared size of 200 bytes/);
});

test('refused: wrong pinned version', async (t) => {
  const { zip, out } = await setup(t);
  await writeBundle(zip, '2026-03-01.aaaa');
  const err = await t.throwsAsync(extractBundle(zip, out, limits, '2026-03-02.bbbb'), { instanceOf: BundleRefusedError });
  t.is(err!.reason, 'bundle version "2026-03-01.aaaa" does not match the pinned version "2026-03-02.bbbb"');
});

test('refused: overlapping entries (two names sharing one compressed stream)', async (t) => {
  const { zip, out } = await setup(t);
  const files = makeSiteFiles('v1');
  const raw = buildRawZip([
    ...Object.entries(files).map(([name, data]) => ({ name, data })),
    { name: '_enclave/manifest.json', data: makeManifest(files, { version: 'v1' }) },
  ]);
  // Point the second central record at the first entry's local header.
  const cdStart = raw.readUInt32LE(raw.length - 22 + 16);
  let pos = cdStart;
  pos += 46 + raw.readUInt16LE(pos + 28);
  raw.writeUInt32LE(0, pos + 42);
  await writeFile(zip, raw);
  const err = await t.throwsAsync(extractBundle(zip, out, limits, null), { instanceOf: BundleRefusedError });
  t.regex(err!.reason, /overlaps another entry|different name in its local header/);
});
