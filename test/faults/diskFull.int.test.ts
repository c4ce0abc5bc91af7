import test, { type ExecutionContext } from 'ava';
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { siteDirs } from '../../src/features/deployments/versionLayout.js';
import { exportPaths } from '../../src/features/exports/ExportPaths.js';
import { openControlStore } from '../../src/features/control/ControlStore.js';
import { snapshotSite } from '../deploy/helpers/loggedAppliance.js';
import { makeSiteFiles, writeBundle } from '../deploy/helpers/testBundles.js';
import { checkBundle, makeSyntheticCorpus } from '../export/exportTestHelpers.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { mountSmallDisk } from '../helpers/smallDisk.js';
import { waitUntil } from '../helpers/waitUntil.js';

test('a full data disk: writes fail with 507, nothing stored is damaged, and the appliance recovers when space is freed', async (t) => {
  const disk = mountSmallDisk(8);
  if (!disk) {
    t.fail('mounting a tmpfs needs root; CI runs as root');
    return;
  }
  t.teardown(() => disk.unmount());
  const dataDir = join(disk.dir, 'data');
  const app = await startTestAppliance({ dataDir });
  t.teardown(() => app.stop());
  const path = `/v1/projects/${app.projectId}`;
  t.is((await app.api(path, { method: 'PATCH', json: { name: 'before the disk filled' } })).status, 200);
  const before = await readFile(join(dataDir, 'control.json'));

  disk.fill();
  const refused = await app.api(path, { method: 'PATCH', json: { name: 'while the disk is full' } });
  t.is(refused.status, 507);
  t.deepEqual(await refused.json(), { error: 'The data volume is full; nothing was written' });
  t.deepEqual(await readFile(join(dataDir, 'control.json')), before, 'the store file is untouched');
  const read = await app.api(path);
  t.is(read.status, 200, 'reads keep working');
  t.is((await read.json()).name, 'before the disk filled', 'memory went back to what is on disk');
  const ready = await app.api('/_enclave/ready', { key: null });
  t.is(ready.status, 503);
  t.is((await ready.json()).store.writable, false);

  disk.free();
  const after = await app.api(path, { method: 'PATCH', json: { name: 'after space was freed' } });
  t.is(after.status, 200);
  t.is((await app.api('/_enclave/ready', { key: null })).status, 200);
  await app.stop();
  const reopened = await openControlStore({ dataDir, sites: [] });
  t.is(reopened.projects.find(app.projectId)!.name, 'after space was freed');
});

/** A small disk with a live test site deployed on it; `reserve` holds back some space to free later. */
async function applianceOnSmallDisk(t: ExecutionContext, sizeMb: number) {
  const disk = mountSmallDisk(sizeMb);
  if (!disk) throw new Error('mounting a tmpfs needs root; CI runs as root');
  t.teardown(() => disk.unmount());
  const outside = await makeTempDir('enclave-disk-bundles-');
  t.teardown(() => rm(outside, { recursive: true, force: true }));
  const dataDir = join(disk.dir, 'data');
  // The test bundles name docs.test.internal: a site of the default project, so feedback has an owner.
  const app = await startTestAppliance({
    dataDir,
    overrides: {
      sites: [{ domain: 'docs.test.internal', source: outside }],
      feedback: { perClientPerMinute: 1000, perPagePerMinute: 1000, globalPerMinute: 1000 },
      limits: { minFreeBytes: 0 },
    },
  });
  t.teardown(() => app.stop());
  const v1 = join(outside, 'v1.zip');
  await writeBundle(v1, 'v1');
  const deployed = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: v1 } });
  t.is(deployed.status, 200, await deployed.clone().text());
  const reserve = join(disk.dir, 'reserve.bin');
  return {
    disk,
    app,
    dataDir,
    outside,
    /** Fills the disk but keeps `kb` KiB aside, released by `release()`. */
    fillKeeping(kb: number) {
      writeFileSync(reserve, Buffer.alloc(kb * 1024, 1));
      disk.fill();
    },
    release: () => rmSync(reserve, { force: true }),
  };
}

const postFeedback = (url: string, comment: string) =>
  fetch(`${url}/_enclave/feedback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ source: 'contextual', path: '/guides/start', helpful: true, comment }),
  });

test('feedback on a full disk: 507, nothing acknowledged is lost, a torn line never survives, and posting works again once space is freed', async (t) => {
  const { disk, app, dataDir } = await applianceOnSmallDisk(t, 8);
  const acked: string[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await postFeedback(app.url, `before ${i} ${'x'.repeat(200)}`);
    t.is(res.status, 201);
    acked.push(((await res.json()) as { id: string }).id);
  }
  disk.fill();
  const statuses = new Map<number, number>();
  for (let i = 0; i < 10; i++) {
    const res = await postFeedback(app.url, `while full ${i} ${'y'.repeat(2000)}`);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status === 201) acked.push(((await res.json()) as { id: string }).id);
    else t.deepEqual(await res.json(), { error: 'The data volume is full; nothing was written' });
  }
  t.true((statuses.get(507) ?? 0) >= 9, `refused with 507: ${JSON.stringify(Object.fromEntries(statuses))}`);
  const listed = await app.api(`/v1/analytics/${app.projectId}/feedback?limit=100`);
  t.is(listed.status, 200, 'reading keeps working on a full disk');
  disk.free();
  for (let i = 0; i < 5; i++) {
    const res = await postFeedback(app.url, `after ${i}`);
    t.is(res.status, 201, 'accepted again once space is freed');
    acked.push(((await res.json()) as { id: string }).id);
  }
  await app.stop();
  const reopened = await startTestAppliance({ dataDir, overrides: app.config });
  t.teardown(() => reopened.stop());
  const ids = new Set<string>();
  for (let cursor = '', n = 0; n < 20; n++) {
    const res = await reopened.api(
      `/v1/analytics/${reopened.projectId}/feedback?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { key: app.key },
    );
    const page = (await res.json()) as { feedback: { id: string }[]; nextCursor: string | null };
    for (const e of page.feedback) ids.add(e.id);
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  t.deepEqual(
    acked.filter((id) => !ids.has(id)),
    [],
    'every acknowledged entry is there after a restart',
  );
  t.is(ids.size, acked.length, 'and nothing that was refused');
  t.log(`feedback: ${acked.length} acknowledged, 0 lost; while full: ${JSON.stringify(Object.fromEntries(statuses))}`);
});

test('a deployment on a full disk is refused, leaves nothing half-activated, and succeeds once space is freed', async (t) => {
  const { disk, app, outside, fillKeeping, release } = await applianceOnSmallDisk(t, 16);
  const big = join(outside, 'big.zip');
  const extra: Record<string, Buffer> = {};
  for (let i = 0; i < 60; i++)
    extra[`bulk/p${i}.html`] = Buffer.from(
      `<!doctype html><meta name="enclave-version" content="big"><p>${i}</p>${randomBytes(48 * 1024).toString('base64')}`,
    );
  await writeBundle(big, 'big', { files: makeSiteFiles('big', extra) });
  const before = await snapshotSite(app.url, ['/', '/guides/start', '/reference']);

  // Room for the deployment record, not for the extracted site.
  fillKeeping(256);
  release();
  const refused = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: big } });
  const body = (await refused.json()) as { error: string };
  t.is(refused.status, 507, body.error);
  t.regex(body.error, /data volume is full/, 'the reason names the full disk');
  t.notRegex(body.error, /\/tmp|ENOSPC/, 'no internal paths or codes');
  t.deepEqual(await snapshotSite(app.url, ['/', '/guides/start', '/reference']), before, 'the live site is byte-for-byte the same');
  const state = (await (await app.api('/v1/deployments')).json()) as { active: { version: string }; running: unknown };
  t.is(state.active.version, 'v1');
  t.is(state.running, null);
  const versionsDir = siteDirs(app.dataDir).versions;
  t.deepEqual(
    (await readdir(versionsDir)).filter((n) => !/^dp_[0-9a-f]{16}$/.test(n)),
    [],
    'no staging (.partial) directory left',
  );

  // Completely full: even the record can't be written.
  disk.fill();
  const full = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: big } });
  t.is(full.status, 507, `completely full → ${full.status}`);
  t.deepEqual(await snapshotSite(app.url, ['/', '/guides/start', '/reference']), before);
  t.deepEqual(
    (await readdir(versionsDir)).filter((n) => !/^dp_[0-9a-f]{16}$/.test(n)),
    [],
  );

  disk.free();
  const ok = await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: big } });
  const done = (await ok.json()) as { status: string; version: string };
  t.is(ok.status, 200, JSON.stringify(done));
  t.is(done.version, 'big');
  t.regex(await (await fetch(`${app.url}/bulk/p3`)).text(), /content="big"/);
  t.log(`deployment while nearly full → ${refused.status} "${body.error}"; completely full → ${full.status}`);
});

test('an export job on a full disk: refused with 507 when even the record cannot be written, failed clearly when space runs out mid-render, fine after freeing', async (t) => {
  t.timeout(4 * 60_000);
  const disk = mountSmallDisk(48);
  if (!disk) throw new Error('mounting a tmpfs needs root; CI runs as root');
  t.teardown(() => disk.unmount());
  const corpusParent = await makeTempDir('enclave-disk-corpus-');
  t.teardown(() => rm(corpusParent, { recursive: true, force: true }));
  const source = await makeSyntheticCorpus(150, { parent: corpusParent });
  const dataDir = join(disk.dir, 'data');
  const app = await startTestAppliance({ dataDir, overrides: { sites: [{ domain: 'disk.test', source }] } });
  t.teardown(() => app.stop());
  const exportsFile = join(dataDir, 'exports.json');

  // A write the appliance began before the fill (a checkpoint replaced by rename, a temp file
  // removed after ENOSPC) can hand a few blocks back: the disk must stay full before asking.
  await disk.fillAndSettle();
  const before = await readFile(exportsFile).catch(() => null);
  const refused = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'disk.test' } });
  t.is(refused.status, 507);
  t.deepEqual(await refused.json(), { error: 'The data volume is full; nothing was written' });
  t.deepEqual(await readFile(exportsFile).catch(() => null), before, 'exports.json untouched');
  t.is(app.features.exports.jobs.list().length, 0, 'no job was queued');
  disk.free();

  // Space runs out while the job renders.
  const started = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'disk.test' } });
  t.is(started.status, 202);
  const { jobId } = (await started.json()) as { jobId: string };
  await waitUntil('the job to start rendering', async () => app.features.exports.jobs.find(jobId)!.status === 'running');
  disk.fill();
  // The failure is recorded once exports.json can be written again: free space after a moment.
  await new Promise((r) => setTimeout(r, 3000));
  disk.free();
  const ended = await waitUntil(
    'the job to end',
    async () => {
      const job = app.features.exports.jobs.find(jobId)!;
      return job.status === 'completed' || job.status === 'failed' ? job : null;
    },
    120_000,
  );
  if (ended.status === 'failed') {
    t.regex(ended.error ?? '', /ENOSPC|space|full/i, `a clear reason: ${ended.error}`);
    t.false(
      existsSync(join(exportPaths(dataDir, jobId).bundleDir, `${jobId}.zip`)) && ended.bundle !== null,
      'no half-written bundle is offered',
    );
    const link = await app.api(`/v1/static-export/jobs/${jobId}/bundle`, { method: 'POST' });
    t.is(link.status, 409, 'no link to a failed job');
  } else {
    t.log('the job finished packing before the disk filled; its bundle must still be whole');
    const zip = await readFile(join(exportPaths(dataDir, jobId).bundleDir, ended.bundle!.file));
    t.deepEqual(checkBundle(zip).problems, []);
  }
  const again = await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'disk.test' } });
  t.is(again.status, 202);
  const retry = (await again.json()) as { jobId: string };
  const finished = await waitUntil(
    'the retry to finish',
    async () => {
      const job = app.features.exports.jobs.find(retry.jobId)!;
      return job.status === 'completed' || job.status === 'failed' ? job : null;
    },
    120_000,
  );
  t.is(finished.status, 'completed', finished.error ?? '');
  t.log(
    `export on a full disk: record write → 507; mid-render → ${ended.status} "${ended.error ?? ''}"; after freeing → ${finished.status}`,
  );
});
