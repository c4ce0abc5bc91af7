import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { makeTempDir } from '../helpers/testAppliance.js';
import { startAnalyticsAppliance } from '../analytics/analyticsAppliance.js';
import { writeSite } from '../export/exportTestHelpers.js';

const run = promisify(execFile);

// Issue 33 item 6: docs/operations.md, "Backup and restore", says an online backup holds every
// write acknowledged before it started. This runs that backup (the same tar command) while
// feedback, keys and sites are being written, restores it into a new data directory, starts
// an appliance there and looks for every write acknowledged before the backup began.

/** The documented online backup: `tar` of the data directory, minus the lock, the CLI key and the cache. */
async function backUp(dataDir: string, archive: string): Promise<void> {
  try {
    await run('tar', [
      '-C',
      dataDir,
      '--exclude=./enclave.lock',
      '--exclude=./secrets/cli-key',
      '--exclude=./cache',
      '--warning=no-file-changed',
      '--warning=no-file-removed',
      '-czf',
      archive,
      '.',
    ]);
  } catch (err) {
    // Exit 1: a file changed or vanished while it was read (an appended log, a store's temp
    // file renamed into place): expected online, and harmless. 2 or more is a real failure.
    if ((err as { code?: number }).code !== 1) throw err;
  }
}

const OVERRIDES = { feedback: { perClientPerMinute: 1_000_000, perPagePerMinute: 1_000_000, globalPerMinute: 1_000_000 } };

test('a backup taken while the server writes restores every write acknowledged before it began', async (t) => {
  const app = await startAnalyticsAppliance({ overrides: OVERRIDES });
  t.teardown(() => app.close());
  const siteSource = await writeSite(t, {
    'docs.json': JSON.stringify({ name: 'S', navigation: { pages: ['index'] } }),
    'index.mdx': '# S\n',
  });
  const work = await makeTempDir('enclave-backup-');
  t.teardown(() => rm(work, { recursive: true, force: true }));

  const acked = { feedback: [] as string[], keys: [] as string[], sites: [] as string[] };
  let stop = false;
  let n = 0;
  const writer = (async () => {
    while (!stop) {
      n++;
      const posted = await fetch(`${app.url}/_enclave/feedback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ source: 'contextual', path: '/', helpful: n % 2 === 0, comment: `write ${n}` }),
      });
      if (posted.status !== 201) throw new Error(`feedback → ${posted.status} ${await posted.text()}`);
      acked.feedback.push(((await posted.json()) as { id: string }).id);
      if (n % 10 === 0) {
        const key = await app.api('/v1/keys', { method: 'POST', json: { name: `k${n}` } });
        if (key.status !== 201) throw new Error(`key → ${key.status} ${await key.text()}`);
        acked.keys.push(((await key.json()) as { id: string }).id);
      }
      if (n % 25 === 0) {
        const domain = `s${n}.backup.test`;
        const site = await app.api('/v1/sites', { method: 'POST', json: { domain, source: siteSource } });
        if (site.status !== 201) throw new Error(`site → ${site.status} ${await site.text()}`);
        acked.sites.push(domain);
      }
    }
  })();

  while (acked.feedback.length < 60) await new Promise((r) => setTimeout(r, 20));
  // Everything acknowledged up to here must be in the backup; what is acknowledged while tar
  // runs may or may not be.
  const before = { feedback: [...acked.feedback], keys: [...acked.keys], sites: [...acked.sites] };
  const archive = join(work, 'enclave-backup.tgz');
  await backUp(app.dataDir, archive);
  const duringBackup = acked.feedback.length - before.feedback.length;
  stop = true;
  await writer;
  await app.stop();
  t.log(
    `${before.feedback.length} feedback entries, ${before.keys.length} keys, ${before.sites.length} sites before the backup; ${duringBackup} entries while it ran`,
  );

  const restoredDir = join(work, 'restored');
  await mkdir(restoredDir);
  await run('tar', ['-C', restoredDir, '-xzf', archive]);
  const restored = await startAnalyticsAppliance({ dataDir: restoredDir, key: app.key, deploy: false, overrides: OVERRIDES });
  t.teardown(() => restored.stop());

  const ids = new Set<string>();
  let cursor: string | null = null;
  do {
    const page = (await restored.report<{ feedback: { id: string }[]; nextCursor: string | null }>(
      `/feedback?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    )) as { feedback: { id: string }[]; nextCursor: string | null };
    for (const e of page.feedback) ids.add(e.id);
    cursor = page.nextCursor;
  } while (cursor);
  t.deepEqual(
    before.feedback.filter((id) => !ids.has(id)),
    [],
    'every feedback entry acknowledged before the backup is restored',
  );
  const keys = ((await (await restored.api('/v1/keys')).json()) as { keys: { id: string }[] }).keys.map((k) => k.id);
  t.deepEqual(
    before.keys.filter((id) => !keys.includes(id)),
    [],
  );
  const sites = ((await (await restored.api('/v1/sites')).json()) as { sites: { domain: string }[] }).sites.map((s) => s.domain);
  t.deepEqual(
    before.sites.filter((d) => !sites.includes(d)),
    [],
  );
  // The live site came back with the data directory: served at once, no deploy needed.
  t.is(((await (await restored.api('/v1/deployments')).json()) as { active: { version: string } }).active.version, 'v1');
  t.is((await fetch(`${restored.url}/`)).status, 200);
});
