// Damaged, truncated and missing files, and wrong permissions: each is a clear startup error or
// a documented recovery, never a silent reset, and the damaged file is left byte-identical.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, readFile, rm, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { keyringPath } from '../../src/platform/SigningKeyring.js';
import { runExport } from '../../src/cli/export.js';
import { runInit } from '../../src/cli/init.js';
import { exportPaths } from '../../src/features/exports/ExportPaths.js';
import { StoreFileError } from '../../src/platform/store/StoreFileError.js';
import { writeBundle } from '../deploy/helpers/testBundles.js';
import { exportToBundle, makeTinySite } from '../export/exportTestHelpers.js';
import { sameBytes } from '../helpers/sameBytes.js';
import { runApplianceExpectingFailure } from '../helpers/spawnAppliance.js';
import { mountSmallDisk } from '../helpers/smallDisk.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';

/** Every lowdb document the appliance keeps in its data directory (see the *.open() calls in src/). */
const STORE_FILES = ['control.json', 'exports.json', 'agent.json', 'deployments.json'] as const;

/** A data directory where every store file exists with real content; copied for each damaged variant. */
async function populatedDataDir(): Promise<{ dataDir: string; site: string }> {
  const site = await makeTinySite(2);
  const dataDir = await makeTempDir('enclave-damage-template-');
  const app = await startTestAppliance({
    dataDir,
    overrides: {
      sites: [
        { domain: 'tiny.test', source: site },
        { domain: 'docs.test.internal', source: site },
      ],
    },
  });
  try {
    await exportToBundle(app, 'tiny.test');
    const zip = join(site, '..', `${Date.now()}-v1.zip`);
    await writeBundle(zip, 'v1');
    const deployed = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: zip } });
    if (deployed.status !== 200) throw new Error(`deploy → ${deployed.status}`);
  } finally {
    await app.stop();
  }
  // agent.json is written on the first agent job; a plain valid document stands in for one.
  await writeFile(join(dataDir, 'agent.json'), JSON.stringify({ schemaVersion: 1, jobs: [] }));
  return { dataDir, site };
}

const damage: Record<string, (bytes: Buffer) => Buffer> = {
  truncated: (b) => b.subarray(0, Math.floor(b.length / 2)),
  'garbage appended': (b) => Buffer.concat([b, Buffer.from('\n{"half": ')]),
  'zero bytes': () => Buffer.alloc(0),
  'not an object': () => Buffer.from('[1,2,3]'),
  'binary noise': (b) => Buffer.from(b.map((x, i) => (i % 7 === 3 ? 0 : x))),
};

test('each store file damaged five ways: startup stops naming the file, nothing is reset, the file is byte-identical', async (t) => {
  t.timeout(4 * 60_000);
  const { dataDir: template } = await populatedDataDir();
  t.teardown(() => rm(template, { recursive: true, force: true }));
  let cases = 0;
  for (const file of STORE_FILES) {
    for (const [kind, mutate] of Object.entries(damage)) {
      const dir = await makeTempDir('enclave-damaged-');
      await cp(template, dir, { recursive: true });
      const path = join(dir, file);
      const damaged = mutate(await readFile(path));
      await writeFile(path, damaged);
      const err = await t.throwsAsync(
        startTestAppliance({ dataDir: dir, serveSample: false }),
        { instanceOf: StoreFileError },
        `${file} ${kind}`,
      );
      t.regex(
        err?.message ?? '',
        new RegExp(`${file.replace('.', '\\.')} cannot be loaded: .*left untouched`),
        `${file} ${kind}: the message names the file`,
      );
      t.deepEqual(await readFile(path), damaged, `${file} ${kind}: left byte-identical`);
      if (kind === 'truncated') {
        // The real process: one line on stderr, exit 1, no stack trace.
        const run = await runApplianceExpectingFailure({ ENCLAVE_DATA_DIR: dir });
        t.is(run.code, 1, `${file}: exit code`);
        t.regex(run.stderr, new RegExp(`enclave: Store file .*${file.replace('.', '\\.')} cannot be loaded`));
        t.notRegex(run.stderr, /\n\s+at /, 'no stack trace');
        t.deepEqual(await readFile(path), damaged, `${file}: still byte-identical after the real process tried`);
      }
      cases++;
      await rm(dir, { recursive: true, force: true });
    }
  }
  t.log(`${cases} damaged store files refused (${STORE_FILES.join(', ')} × ${Object.keys(damage).join(', ')})`);
});

test('a stale lock file holding garbage is taken over; the store is untouched', async (t) => {
  const dir = await makeTempDir('enclave-lock-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const first = await startTestAppliance({ dataDir: dir });
  const key = first.key;
  await first.stop();
  const control = await readFile(join(dir, 'control.json'));
  await writeFile(join(dir, 'enclave.lock'), 'not a pid\u0000\n');
  const again = await startTestAppliance({ dataDir: dir });
  t.teardown(() => again.stop());
  t.is((await again.api(`/v1/projects/${again.projectId}`, { key })).status, 200, 'the old key still works: nothing was reset');
  // Using the key records its lastUsedAt (a write that may land any moment after the answer):
  // everything else must be as it was.
  t.deepEqual(withoutKeyUse(await readFile(join(dir, 'control.json'))), withoutKeyUse(control));
});

/** control.json parsed, with the keys' advisory lastUsedAt left out. */
function withoutKeyUse(file: Buffer): unknown {
  const data = JSON.parse(file.toString('utf8')) as { adminKeys: Record<string, unknown>[] };
  for (const key of data.adminKeys) delete key.lastUsedAt;
  return data;
}

test('a missing signing secret stops startup naming the file and `enclave init`; init recovers without touching keys or projects', async (t) => {
  const dir = await makeTempDir('enclave-secret-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const first = await startTestAppliance({ dataDir: dir });
  const { key, projectId } = first;
  await first.stop();
  const control = await readFile(join(dir, 'control.json'));
  await unlink(keyringPath(dir));

  const run = await runApplianceExpectingFailure({ ENCLAVE_DATA_DIR: dir });
  t.is(run.code, 1);
  t.regex(run.stderr, /secrets\/signing-keys\.json cannot be loaded: the signing secret is missing \(run `enclave init`/);
  t.notRegex(run.stderr, /\n\s+at /);
  t.deepEqual(await readFile(join(dir, 'control.json')), control, 'control.json untouched');
  await t.throwsAsync(stat(keyringPath(dir)), undefined, 'no secret was silently made up');

  // The documented recovery.
  const io = { out: sink(), err: sink(), env: { ENCLAVE_DATA_DIR: dir, ENCLAVE_LOG_LEVEL: 'silent' } };
  t.is(await runInit([], io), 0, io.err.text());
  t.is((await stat(keyringPath(dir))).mode & 0o777, 0o600, 'the new secret is private');
  const again = await startTestAppliance({ dataDir: dir });
  t.teardown(() => again.stop());
  t.is(again.projectId, projectId);
  t.is((await again.api(`/v1/projects/${projectId}`, { key })).status, 200, 'existing admin keys still work');
});

test('a signing secret readable by others (0644) is refused with the chmod fix; the file is not changed', async (t) => {
  const dir = await makeTempDir('enclave-secret-mode-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await (await startTestAppliance({ dataDir: dir })).stop();
  const secret = keyringPath(dir);
  const bytes = await readFile(secret);
  await chmod(secret, 0o644);
  const run = await runApplianceExpectingFailure({ ENCLAVE_DATA_DIR: dir });
  t.is(run.code, 1);
  t.regex(run.stderr, /signing-keys\.json cannot be loaded: its permissions let other users read it; run `chmod 600`/);
  t.notRegex(run.stderr, /\n\s+at /);
  t.is((await stat(secret)).mode & 0o777, 0o644, 'mode left as found');
  t.deepEqual(await readFile(secret), bytes);
  // A damaged secret is refused the same way.
  await chmod(secret, 0o600);
  await writeFile(secret, bytes.subarray(0, 20));
  const damaged = await runApplianceExpectingFailure({ ENCLAVE_DATA_DIR: dir });
  t.is(damaged.code, 1);
  t.regex(damaged.stderr, /signing-keys\.json cannot be loaded: not valid JSON/);
});

test('a data directory that cannot be written: a one-line startup error naming the path, no stack trace, nothing changed', async (t) => {
  // Root ignores permission bits, so a read-only mount stands in for "not writable" there.
  const asRoot = process.getuid?.() === 0;
  const disk = asRoot ? mountSmallDisk(8) : null;
  if (asRoot && !disk) throw new Error('could not mount a tmpfs as root');
  if (disk) t.teardown(() => disk.unmount());
  const parent = disk?.dir ?? (await makeTempDir('enclave-ro-'));
  const dir = join(parent, 'data');
  await mkdir(dir);
  await (await startTestAppliance({ dataDir: dir })).stop();
  const control = await readFile(join(dir, 'control.json'));
  if (disk) execFileSync('mount', ['-o', 'remount,ro', disk.dir]);
  else await chmod(dir, 0o500);
  t.teardown(() => (disk ? undefined : chmod(dir, 0o700)));

  const run = await runApplianceExpectingFailure({ ENCLAVE_DATA_DIR: dir });
  t.is(run.code, 1);
  t.regex(run.stderr, /enclave: failed to start: (EROFS|EACCES)[^\n]*enclave\.lock/, run.stderr);
  t.notRegex(run.stderr, /\n\s+at /, 'no stack trace');
  t.deepEqual(await readFile(join(dir, 'control.json')), control);
  t.log(`not writable → ${run.stderr.trim()}`);
});

test('a truncated bundle zip in the bundles directory: the CLI download refuses it, a deployment refuses it, the file is left as found', async (t) => {
  const site = await makeTinySite(2);
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source: site }] } });
  t.teardown(() => app.close());
  const { job, link } = await exportToBundle(app, 'tiny.test');
  const record = app.features.exports.jobs.find(job.jobId)!;
  const zipPath = join(exportPaths(app.dataDir, job.jobId).bundleDir, record.bundle!.file);
  await truncate(zipPath, Math.floor(link.sizeBytes / 2));
  const truncated = await readFile(zipPath);

  const outDir = await makeTempDir('enclave-download-');
  t.teardown(() => rm(outDir, { recursive: true, force: true }));
  const out = join(outDir, 'bundle.zip');
  const io = { out: sink(), err: sink(), env: { ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key, ENCLAVE_PROJECT_ID: app.projectId } };
  const code = await runExport(['download', job.jobId, '--out', out], io);
  t.is(code, 1, 'the download fails');
  t.regex(io.err.text(), /download failed: 410 .*damaged on the server/, 'the server refuses to hand out the damaged file');
  await t.throwsAsync(stat(out), undefined, 'no file under the final name');

  const deployed = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: link.bundleUrl } });
  t.is(deployed.status, 422);
  t.regex(((await deployed.json()) as { error: string }).error, /^Bundle (refused|could not be fetched)/);
  t.is((await fetch(`${app.url}/`)).status, 503, 'nothing was activated');
  sameBytes(t, await readFile(zipPath), truncated, 'the damaged zip is left as found');
  t.log(`truncated zip: CLI → exit ${code}, "${io.err.text().trim().split('\n').at(-1)}"; deploy → 422`);
});

/** A Writable that keeps what was written. */
function sink(): Writable & { text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return Object.assign(stream, { text: () => text });
}
