import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import test, { type ExecutionContext } from 'ava';
import { pino } from 'pino';
import type { FileExtras } from '../../src/bundle/install/FileExtras.js';
import { installBundleVersion } from '../../src/features/deployments/installBundleVersion.js';
import { loadSiteVersion } from '../../src/features/deployments/loadSiteVersion.js';
import { settleVariants } from '../../src/features/deployments/settleVariants.js';
import type { SiteVersion } from '../../src/features/deployments/SiteVersion.js';
import { INLINE_COMPRESS_BYTES } from '../../src/features/deployments/VariantSettler.js';
import { readVersionOrigins } from '../../src/features/deployments/VersionOrigins.js';
import { VerifiedVariants } from '../../src/features/deployments/VerifiedVariants.js';
import { makeSiteFiles, type SiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { BIG_PATH, bigFile } from './bigFile.js';
import { sameBytes } from '../helpers/sameBytes.js';

const limits = { maxBundleBytes: 2 ** 30, maxEntries: 10_000, maxExtractedBytes: 2 ** 31, maxCompressionRatio: 1000 };
const never = () => false;

/** A temp folder with `one.zip` (a site with a big text file) and `versions/`; errors logged by settling land in `errors`. */
async function setup(t: ExecutionContext, extra: SiteFiles = {}) {
  const dir = await makeTempDir('enclave-deferred-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const files = makeSiteFiles('one', { [BIG_PATH]: bigFile('one'), ...extra });
  await writeBundle(join(dir, 'one.zip'), 'one', { files });
  const errors: string[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(line) });
  return { dir, files, versions: join(dir, 'versions'), errors, logger, verified: new VerifiedVariants() };
}

/** The bytes a reader gets for `path` in `encoding` from the table (decoded), or null when that variant is not served. */
async function servedBytes(version: SiteVersion, path: string, encoding: 'br' | 'gzip' | 'identity'): Promise<Buffer | null> {
  const file = version.file(path)!;
  const variant = encoding === 'identity' ? file.identity : file[encoding];
  if (!variant) return null;
  const data = await readFile(variant.absPath);
  assertSize(data, variant.size);
  return encoding === 'br' ? brotliDecompressSync(data) : encoding === 'gzip' ? gunzipSync(data) : data;
}

function assertSize(data: Buffer, size: number): void {
  if (data.length !== size) throw new Error(`variant is ${data.length} bytes, its table entry says ${size}`);
}

const extrasOf = async (versions: string, id: string) =>
  JSON.parse(await readFile(join(versions, id, 'extras.json'), 'utf8')) as Record<string, FileExtras>;

test('a big changed file is served as identity until its variants are made, then both decode to the file', async (t) => {
  const { dir, files, versions, errors, logger, verified } = await setup(t);
  const installed = await installBundleVersion(join(dir, 'one.zip'), versions, 'one', limits, null, {
    inlineBudget: INLINE_COMPRESS_BYTES,
  });
  const version = await loadSiteVersion('one', installed.layout, installed);
  t.true((await extrasOf(versions, 'one'))[BIG_PATH].deferred, 'recorded as deferred');
  t.is(await servedBytes(version, BIG_PATH, 'br'), null, 'no brotli variant is served before it is made');
  t.is(await servedBytes(version, BIG_PATH, 'gzip'), null);
  sameBytes(t, await servedBytes(version, BIG_PATH, 'identity'), files[BIG_PATH]);
  sameBytes(t, await servedBytes(version, 'index.html', 'br'), files['index.html'], 'a small page is compressed before the switch');
  t.deepEqual(
    version.unsettled.map((f) => f.path),
    [BIG_PATH],
  );

  await settleVariants(version, installed.layout.extras, { stop: never, logger, verified });
  sameBytes(t, await servedBytes(version, BIG_PATH, 'br'), files[BIG_PATH]);
  sameBytes(t, await servedBytes(version, BIG_PATH, 'gzip'), files[BIG_PATH]);
  const record = (await extrasOf(versions, 'one'))[BIG_PATH];
  t.is(record.deferred, undefined);
  t.is(record.br, version.file(BIG_PATH)!.br!.size);
  t.regex(record.variantSha256?.br ?? '', /^[0-9a-f]{64}$/);
  t.deepEqual(errors, []);
});

test.serial('a restart mid-way serves no variant it has not checked; a leftover of a crash is replaced, not served', async (t) => {
  const { dir, files, versions, logger, verified } = await setup(t);
  // Everything deferred: several files to settle, so it can be stopped part way.
  const installed = await installBundleVersion(join(dir, 'one.zip'), versions, 'one', limits, null, { inlineBudget: 0 });
  const first = await loadSiteVersion('one', installed.layout, installed);
  const all = first.unsettled.map((f) => f.path);
  t.true(all.length >= 5 && all.includes(BIG_PATH) && all.includes('index.html'));
  let asked = 0;
  await settleVariants(first, installed.layout.extras, { stop: () => asked++ >= 3, logger, verified });
  const settled = all.filter((p) => first.file(p)!.br);
  t.true(settled.length >= 1 && settled.length < all.length, `settled ${settled.length} of ${all.length}`);
  const pending = all.find((p) => !first.file(p)!.br)!;
  // What a crash while writing a variant leaves: bytes on disk that no record names.
  await writeFile(join(installed.layout.encoded, `${pending}.br`), Buffer.from('half a brotli stream'));

  const restarted = await loadSiteVersion('one', installed.layout); // a restart: a new deployer has checked nothing
  for (const path of all) t.is(restarted.file(path)!.br, undefined, `${path}: nothing unchecked is served after a restart`);
  t.deepEqual(restarted.unsettled.map((f) => f.path).sort(), [...all].sort());
  await settleVariants(restarted, installed.layout.extras, { stop: never, logger, verified });
  for (const path of all) {
    sameBytes(t, await servedBytes(restarted, path, 'br'), files[path], path);
    sameBytes(t, await servedBytes(restarted, path, 'gzip'), files[path], path);
  }
  t.is((await loadSiteVersion('one', installed.layout, undefined, verified)).unsettled.length, 0, 'checked once per deployer');
  t.is((await loadSiteVersion('one', installed.layout)).unsettled.length, all.length, 'and again after each restart');
});

test.serial('a tampered variant made after the switch is never served: it is found after a restart and made again', async (t) => {
  const { dir, files, versions, logger, verified } = await setup(t);
  const installed = await installBundleVersion(join(dir, 'one.zip'), versions, 'one', limits, null, {
    inlineBudget: INLINE_COMPRESS_BYTES,
  });
  await settleVariants(await loadSiteVersion('one', installed.layout, installed), installed.layout.extras, {
    stop: never,
    logger,
    verified,
  });
  const brPath = join(installed.layout.encoded, `${BIG_PATH}.br`);
  const good = await readFile(brPath);
  // Same size, other bytes: only the recorded SHA-256 tells them apart.
  const tampered = Buffer.from(good);
  tampered[Math.floor(tampered.length / 2)] ^= 0xff;
  await writeFile(brPath, tampered);

  const restarted = await loadSiteVersion('one', installed.layout);
  t.is(restarted.file(BIG_PATH)!.br, undefined, 'not served before it is checked');
  sameBytes(t, await servedBytes(restarted, BIG_PATH, 'identity'), files[BIG_PATH]);
  await settleVariants(restarted, installed.layout.extras, { stop: never, logger, verified });
  sameBytes(t, await readFile(brPath), good, 'made again from the checked file');
  sameBytes(t, await servedBytes(restarted, BIG_PATH, 'br'), files[BIG_PATH]);
});

test('a file whose identity bytes differ from the manifest gets no variants', async (t) => {
  const { dir, versions, errors, logger, verified } = await setup(t);
  const installed = await installBundleVersion(join(dir, 'one.zip'), versions, 'one', limits, null, {
    inlineBudget: INLINE_COMPRESS_BYTES,
  });
  const version = await loadSiteVersion('one', installed.layout, installed);
  const big = join(installed.layout.files, BIG_PATH);
  const altered = await readFile(big);
  altered[10] ^= 0x20;
  await writeFile(big, altered);
  await settleVariants(version, installed.layout.extras, { stop: never, logger, verified });
  t.is(version.file(BIG_PATH)!.br, undefined);
  t.is(version.file(BIG_PATH)!.gzip, undefined);
  t.true((await extrasOf(versions, 'one'))[BIG_PATH].deferred);
  t.is(errors.length, 1);
  t.regex(errors[0], /does not match the manifest/);
});

test('a layered install does not take a file of the live version still waiting for its variants', async (t) => {
  const { dir, files, versions, logger, verified } = await setup(t);
  const installed = await installBundleVersion(join(dir, 'one.zip'), versions, 'one', limits, null, {
    inlineBudget: INLINE_COMPRESS_BYTES,
  });
  const two = { ...files, 'index.html': Buffer.from(files['index.html'].toString().replace('Welcome', 'Welcome back')) };
  await writeBundle(join(dir, 'two.zip'), 'two', { files: two });
  const next = await installBundleVersion(join(dir, 'two.zip'), versions, 'two', limits, null, {
    liveId: 'one',
    layered: true,
    inlineBudget: INLINE_COMPRESS_BYTES,
  });
  const origins = await readVersionOrigins(next.layout.origins);
  t.truthy(origins?.files['guides/start.html'] !== undefined, 'unchanged, settled files are read from the live version');
  t.is(origins?.files[BIG_PATH], undefined, 'the deferred one is written again');
  const version = await loadSiteVersion('two', next.layout, next);
  t.deepEqual(
    version.unsettled.map((f) => ({ path: f.path, own: f.own })),
    [{ path: BIG_PATH, own: true }],
  );
  await settleVariants(version, next.layout.extras, { stop: never, logger, verified });
  sameBytes(t, await servedBytes(version, BIG_PATH, 'br'), files[BIG_PATH]);
  t.is((await loadSiteVersion('one', installed.layout)).file(BIG_PATH)!.br, undefined, 'the live one still waits for its own');
});
