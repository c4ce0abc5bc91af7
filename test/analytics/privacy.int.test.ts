import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/Clock.js';
import { loadConfig } from '../../src/config/loadConfig.js';
import { CHROME, FIREFOX, startAnalyticsAppliance } from './analyticsAppliance.js';

/** Every file under `dir`, as text. */
async function allFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    // Other stores replace their files through temp files that can vanish between listing and reading.
    const text = await readFile(join(entry.parentPath, entry.name), 'latin1').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null;
      throw err;
    });
    if (text !== null) out.set(join(entry.parentPath, entry.name), text);
  }
  return out;
}

test('daily salt rotation: a new salt each UTC day, the old one kept nowhere, the same reader is a new visitor the next day, and no address or user agent is stored', async (t) => {
  const clock = new ManualClock('2026-03-01T23:00:00Z');
  const app = await startAnalyticsAppliance({ clock });
  t.teardown(() => app.close());
  await app.visit('/', CHROME);
  await app.visit('/', CHROME);
  await app.features.analytics.log.flush();

  clock.set('2026-03-02T00:30:00Z');
  await app.visit('/', CHROME);
  await app.visit('/', FIREFOX);
  await app.features.analytics.log.flush();

  const visitors = await app.report<{ totals: { human: number }; days: { date: string; human: number }[] }>('/visitors?groupBy=day');
  t.deepEqual(
    visitors.days.map((d) => [d.date, d.human]),
    [
      ['2026-03-01', 1],
      ['2026-03-02', 2],
    ],
    "yesterday's reader cannot be recognised today",
  );

  const files = await allFiles(app.dataDir);
  for (const [path, text] of files) {
    t.false(path.endsWith('visitor-salt.json'), `a salt file in ${path}`);
    if (path.includes(`${join('analytics', app.projectId)}`)) {
      t.false(text.includes('127.0.0.1'), `address stored in ${path}`);
      t.false(text.includes('Chrome/140'), `user agent stored in ${path}`);
    }
  }
  const events = [...files]
    .filter(([p]) => p.endsWith('.jsonl') && p.includes(join('analytics', app.projectId)))
    .flatMap(([, text]) =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { t: number; h: string }),
    );
  const hashes = (day: string) => new Set(events.filter((e) => new Date(e.t).toISOString().startsWith(day)).map((e) => e.h));
  t.is(hashes('2026-03-01').size, 1);
  t.is(hashes('2026-03-02').size, 2);
  t.false(
    [...hashes('2026-03-02')].some((h) => hashes('2026-03-01').has(h)),
    'the same address + agent hashes differently on another day',
  );
});

test('analytics retention: days older than analytics.retentionDays (default 400) are deleted', async (t) => {
  const clock = new ManualClock('2025-01-10T10:00:00Z');
  const app = await startAnalyticsAppliance({ clock });
  t.teardown(() => app.close());
  t.is(loadConfig({ env: {} }).analytics.retentionDays, 400);
  await app.visit('/', CHROME);
  clock.set('2026-02-10T10:00:00Z');
  await app.visit('/', CHROME);
  const removed = await app.features.analytics.applyRetention(new Date('2026-02-20T00:00:00Z'));
  t.is(removed.length, 1);
  t.regex(removed[0], /2025-01-10\.jsonl$/);
  const views = await app.report<{ totals: { total: number } }>('/views');
  t.is(views.totals.total, 1);
});
