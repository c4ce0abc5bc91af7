import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { Header, Pax } from 'tar';
import { BundleRefusedError } from '../../src/bundle/BundleRefusedError.js';
import { extractBundle } from '../../src/bundle/install/extractBundle.js';
import type { BundleLimits } from '../../src/bundle/install/verifyBundle.js';
import { writeTarGz } from '../../src/bundle/tar/writeTarGz.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { makeManifest, makeSiteFiles, type SiteFiles } from '../deploy/helpers/testBundles.js';

const limits: BundleLimits = {
  maxBundleBytes: 64 * 1024 * 1024,
  maxEntries: 1000,
  maxExtractedBytes: 256 * 1024 * 1024,
  maxCompressionRatio: 200,
};

/** One raw tar entry, written by hand so a test can say exactly what the archive holds. */
interface RawTarEntry {
  name: string;
  type?: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'FIFO';
  body?: Buffer;
  linkpath?: string;
  /** Declared size, when it should differ from the body's. */
  size?: number;
}

function rawTarGz(entries: RawTarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = e.body ?? Buffer.alloc(0);
    const data = {
      path: e.name,
      mode: 0o644,
      size: e.size ?? body.length,
      type: e.type ?? 'File',
      linkpath: e.linkpath,
      mtime: new Date(0),
    };
    const block = Buffer.alloc(512);
    if (new Header(data).encode(block, 0)) blocks.push(new Pax({ path: e.name, linkpath: e.linkpath }).encode());
    blocks.push(block, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

function bundleEntries(files: SiteFiles, version: string): RawTarEntry[] {
  return [
    { name: '_enclave/manifest.json', body: makeManifest(files, { version }) },
    ...Object.entries(files).map(([name, body]) => ({ name, body })),
  ];
}

async function setup(t: { teardown(fn: () => Promise<void>): void }) {
  const dir = await makeTempDir('enclave-targz-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return { dir, archive: join(dir, 'bundle.tar.gz'), out: join(dir, 'out', 'files') };
}

test('a tar.gz written by writeTarGz extracts byte for byte, long names included, manifest checked and pinned', async (t) => {
  const { archive, out } = await setup(t);
  const longName = `${'deep/'.repeat(30)}page.html`;
  const files = makeSiteFiles('v1', { [longName]: Buffer.from('<p>deep</p>') });
  const entries = [
    { name: '_enclave/manifest.json', data: makeManifest(files, { version: 'v1' }) },
    ...Object.entries(files).map(([name, data]) => ({ name, data })),
  ];
  await writeTarGz(
    entries.map((e) => ({
      name: e.name,
      size: e.data.length,
      open: () =>
        (async function* () {
          yield e.data;
        })() as unknown as NodeJS.ReadableStream,
    })),
    archive,
    new Date('2026-03-01T00:00:00Z'),
  );
  const result = await extractBundle(archive, out, limits, 'v1');
  t.is(result.manifest.version, 'v1');
  t.is(result.fileCount, Object.keys(files).length);
  for (const [path, data] of Object.entries(files)) t.deepEqual(await readFile(join(out, path)), data, path);
  await t.throwsAsync(stat(join(out, '_enclave/manifest.json')), undefined, 'the manifest itself is not extracted');
  const pinned = await t.throwsAsync(extractBundle(archive, join(out, '..', 'again'), limits, 'v2'), { instanceOf: BundleRefusedError });
  t.regex(pinned!.reason, /does not match the pinned version/);
});

test('a tarball made with `tar -C dir .` (./ names, folder entries) is accepted', async (t) => {
  const { archive, out } = await setup(t);
  const files = makeSiteFiles('v1');
  const entries = bundleEntries(files, 'v1').map((e) => ({ ...e, name: `./${e.name}` }));
  await writeFile(archive, rawTarGz([{ name: './', type: 'Directory' }, { name: './_enclave/', type: 'Directory' }, ...entries]));
  t.is((await extractBundle(archive, out, limits, null)).fileCount, Object.keys(files).length);
});

const files = makeSiteFiles('v1');
const cases: { title: string; extra: RawTarEntry[]; reason: RegExp; limits?: Partial<BundleLimits> }[] = [
  { title: 'a ../ name', extra: [{ name: '../escape.html', body: Buffer.from('x') }], reason: /unsafe entry name .*"\.\." segment/ },
  { title: 'an absolute name', extra: [{ name: '/etc/passwd', body: Buffer.from('x') }], reason: /unsafe entry name .*absolute path/ },
  {
    title: 'a symlink',
    extra: [{ name: 'link.html', type: 'SymbolicLink', linkpath: '/etc/passwd' }],
    reason: /symlink entry "link\.html" is not allowed/,
  },
  {
    title: 'a hard link',
    extra: [{ name: 'hard.html', type: 'Link', linkpath: 'index.html' }],
    reason: /hard link entry "hard\.html" is not allowed/,
  },
  { title: 'a device', extra: [{ name: 'dev', type: 'CharacterDevice' }], reason: /device or special file entry "dev"/ },
  {
    title: 'a file the manifest does not list',
    extra: [{ name: 'extra.html', body: Buffer.from('x') }],
    reason: /in the zip but not in the manifest/,
  },
  { title: 'a duplicate', extra: [{ name: 'index.html', body: Buffer.from('x') }], reason: /duplicate entry "index\.html"/ },
  { title: 'too many entries', extra: [], reason: /too many entries/, limits: { maxEntries: 3 } },
  { title: 'too much data', extra: [], reason: /total uncompressed size exceeds 2000 bytes/, limits: { maxExtractedBytes: 2000 } },
];
for (const c of cases) {
  test(`refused, like a zip: ${c.title}`, async (t) => {
    const { archive, out } = await setup(t);
    await writeFile(archive, rawTarGz([...bundleEntries(files, 'v1'), ...c.extra]));
    const err = await t.throwsAsync(extractBundle(archive, out, { ...limits, ...c.limits }, null), { instanceOf: BundleRefusedError });
    t.regex(err!.reason, c.reason);
    await t.throwsAsync(stat(join(out, 'index.html')), undefined, 'nothing was extracted');
  });
}

test('refused: a decompression bomb, stopped by the archive ratio before it is inflated', async (t) => {
  const { archive, out } = await setup(t);
  const zeros = Buffer.alloc(8 * 1024 * 1024);
  await writeFile(archive, rawTarGz([...bundleEntries(files, 'v1'), { name: 'zeros.bin', body: zeros }]));
  const err = await t.throwsAsync(extractBundle(archive, out, limits, null), { instanceOf: BundleRefusedError });
  t.regex(err!.reason, /expands beyond 200:1 \(possible decompression bomb\)/);
});

test('refused: a file altered after the manifest was written, and a truncated archive', async (t) => {
  const { archive, out } = await setup(t);
  const altered = bundleEntries(files, 'v1').map((e) =>
    e.name === 'index.html' ? { ...e, body: Buffer.from(e.body!.toString().replace('Home', 'Hack')) } : e,
  );
  await writeFile(archive, rawTarGz(altered));
  t.regex(
    (await t.throwsAsync(extractBundle(archive, out, limits, null), { instanceOf: BundleRefusedError }))!.reason,
    /SHA-256 of "index\.html" does not match/,
  );
  const whole = rawTarGz(bundleEntries(files, 'v1'));
  await writeFile(archive, whole.subarray(0, Math.floor(whole.length / 2)));
  await rm(out, { recursive: true, force: true });
  t.regex((await t.throwsAsync(extractBundle(archive, out, limits, null), { instanceOf: BundleRefusedError }))!.reason, /corrupt tar\.gz/);
});
