import { readFile, rm, truncate, unlink, utimes, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { storedManifestSchema } from '../../src/bundle/bundleManifest.js';
import { installBundleVersion } from '../../src/features/deployments/installBundleVersion.js';
import { StoredRecords, storedManifests } from '../../src/features/deployments/StoredRecords.js';
import { readVersionOrigins, storedOrigins } from '../../src/features/deployments/VersionOrigins.js';
import { makeManifest, makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';
import { makeTempDir } from '../helpers/testAppliance.js';

const parseManifest = (text: string) => storedManifestSchema.parse(JSON.parse(text));
const LIMITS = { maxBundleBytes: 2 ** 30, maxEntries: 10_000, maxExtractedBytes: 2 ** 30, maxCompressionRatio: 1000 };

async function tempDir(t: ExecutionContext): Promise<string> {
  const dir = await makeTempDir('enclave-stored-manifests-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A manifest file for `version` at `path`, and what a fresh read of it gives. */
async function manifestFile(path: string, version: string) {
  await writeFile(path, makeManifest(makeSiteFiles(version), { version }));
  return storedManifestSchema.parse(JSON.parse(await readFile(path, 'utf8')));
}

test('a remembered manifest is returned while its file is unchanged', async (t) => {
  const path = join(await tempDir(t), 'manifest.json');
  const fresh = await manifestFile(path, 'v1');
  const cache = new StoredRecords(parseManifest);
  const held = { ...fresh };
  await cache.remember(path, held);
  // The very object remembered: the file was not read again.
  t.is(await cache.read(path), held);
  t.is(await cache.read(path), held);
});

test('a file rewritten, truncated with its mtime put back, corrupted or removed is read afresh', async (t) => {
  const path = join(await tempDir(t), 'manifest.json');
  const cache = new StoredRecords(parseManifest);
  await cache.remember(path, await manifestFile(path, 'v1'));

  const v2 = await manifestFile(path, 'v2');
  t.deepEqual(await cache.read(path), v2);
  t.is((await cache.read(path)).version, 'v2');

  const before = await stat(path);
  await truncate(path, before.size - 10);
  await utimes(path, before.atime, before.mtime);
  await t.throwsAsync(() => cache.read(path), { instanceOf: SyntaxError });

  await writeFile(path, JSON.stringify({ ...v2, files: [{ path: 'a.html', size: -1, sha256: 'x' }] }));
  await t.throwsAsync(() => cache.read(path));

  await unlink(path);
  await t.throwsAsync(() => cache.read(path), { code: 'ENOENT' });
});

test('past its limit the oldest manifest is forgotten', async (t) => {
  const dir = await tempDir(t);
  const cache = new StoredRecords(parseManifest, 1);
  const [one, two] = [join(dir, 'one.json'), join(dir, 'two.json')];
  const heldOne = await manifestFile(one, 'v1');
  const heldTwo = await manifestFile(two, 'v2');
  await cache.remember(one, heldOne);
  await cache.remember(two, heldTwo);
  t.is(await cache.read(two), heldTwo);
  const again = await cache.read(one);
  t.not(again, heldOne);
  t.deepEqual(again, heldOne);
});

test('an install remembers the manifest and origins it wrote, equal to a fresh read; the next install over it is unchanged', async (t) => {
  const dir = await tempDir(t);
  const one = makeSiteFiles('one');
  const two = { ...one, 'guides/new.html': Buffer.from('<!doctype html><title>New</title><p>new</p>') };
  await writeBundle(join(dir, 'one.zip'), 'one', { files: one });
  await writeBundle(join(dir, 'two.zip'), 'two', { files: two });
  const versions = join(dir, 'versions');
  const first = await installBundleVersion(join(dir, 'one.zip'), versions, 'v1', LIMITS, null);
  t.is(await storedManifests.read(first.layout.manifest), first.manifest);
  t.deepEqual(first.manifest, storedManifestSchema.parse(JSON.parse(await readFile(first.layout.manifest, 'utf8'))));

  const second = await installBundleVersion(join(dir, 'two.zip'), versions, 'v2', LIMITS, null, { liveId: 'v1', layered: true });
  t.true(second.layered);
  t.is(second.fileCount - second.linkedFiles, 1);
  // Its origins record too: the very object the install wrote, equal to a fresh read.
  const origins = await readVersionOrigins(second.layout.origins);
  const remembered: typeof origins = await storedOrigins.read(second.layout.origins);
  t.is<typeof origins, typeof origins>(remembered, origins);
  t.deepEqual(origins, JSON.parse(await readFile(second.layout.origins, 'utf8')));
  t.true(Object.keys(origins?.files ?? {}).length > 0);
  // An origins record rewritten naming a holder it does not list is refused, not served from memory.
  await writeFile(second.layout.origins, JSON.stringify({ holders: [], files: { 'index.html': 0 } }));
  await t.throwsAsync(() => readVersionOrigins(second.layout.origins), { message: /holder it does not list/ });
  await unlink(second.layout.origins);
  t.is(await readVersionOrigins(second.layout.origins), null);

  // The live version's manifest replaced behind the cache's back: the next install reads the new file.
  await writeFile(first.layout.manifest, JSON.stringify({ ...first.manifest, files: [] }));
  const third = await installBundleVersion(join(dir, 'two.zip'), versions, 'v3', LIMITS, null, { liveId: 'v1', layered: true });
  t.is(third.linkedFiles, 0);
});
