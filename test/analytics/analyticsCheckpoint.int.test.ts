import test from 'ava';
import { createHash } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AnalyticsLog } from '../../src/features/analytics/AnalyticsLog.js';
import { reportSearches, reportViews, reportVisitors } from '../../src/features/analytics/AnalyticsOperations.js';
import { DAY_MS } from '../../src/platform/Clock.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { makeTempDir } from '../helpers/testAppliance.js';

// Issue 28 item 3: a restart re-scanned the whole open day (its time grew with the day's
// traffic), texts were interned forever, and unique queries grew memory without bound.

const AT = Date.parse('2026-03-01T10:00:00Z');
const TODAY = Math.floor(AT / DAY_MS);
const logger = createLogger('silent');
const visitor = (i: number) => createHash('sha256').update(String(i)).digest('hex').slice(0, 16);
const page = { limit: 10, offset: 0, byDay: false };

function fill(log: AnalyticsLog, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    log.record('proj_a', {
      kind: 'view',
      at: AT + i,
      domain: 'docs',
      version: 'v1',
      path: `/p${i % 50}`,
      ai: i % 7 === 0,
      visitor: visitor(i),
    });
    if (i % 10 === 0) log.record('proj_a', { kind: 'search', at: AT + i, domain: 'docs', query: `q${i}`, results: i % 3 });
  }
}

function figures(log: AnalyticsLog) {
  return {
    views: reportViews(log, 'proj_a', {}, page).totals,
    visitors: reportVisitors(log, 'proj_a', {}, page).totals,
    searches: reportSearches(log, 'proj_a', {}, { limit: 5, offset: 0 }),
  };
}

test("a restart reads the open day's checkpoint and scans only the events written after it, with the same figures", async (t) => {
  const dataDir = await makeTempDir('enclave-analytics-checkpoint-');
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = await AnalyticsLog.open({ dataDir, logger, today: TODAY });
  fill(first, 0, 40_000);
  const before = figures(first);
  await first.close(TODAY);

  const second = await AnalyticsLog.open({ dataDir, logger, today: TODAY });
  t.like(second.stats, { checkpointDays: 1, scannedDays: 0, scannedEvents: 0 }, 'none of the 44,000 events re-scanned');
  t.deepEqual(figures(second), before);
  // A crash after a checkpoint: only the events after it are scanned.
  await second.checkpoint(TODAY);
  fill(second, 40_000, 40_300);
  await second.flush();
  const afterCrash = figures(second);
  const third = await AnalyticsLog.open({ dataDir, logger, today: TODAY });
  t.is(third.stats.scannedEvents, 330);
  t.deepEqual(figures(third), afterCrash);
  await second.close();
  await third.close();

  // A checkpoint that claims more than the file holds (events lost before reaching the disk) is not trusted.
  const rollup = join(dataDir, 'analytics', 'proj_a', '2026-03-01.rollup.json');
  await writeFile(rollup, JSON.stringify({ rawBytes: 1e12, views: [], visitors: [], searches: [], sketches: [] }));
  const fourth = await AnalyticsLog.open({ dataDir, logger, today: TODAY });
  t.teardown(() => fourth.close());
  t.like(fourth.stats, { checkpointDays: 0, scannedDays: 1 });
  t.deepEqual(figures(fourth).views, afterCrash.views);
});

test('texts no kept day uses are forgotten: 20,000 unique queries leave at most 1,000 per closed day, in memory and after a restart', async (t) => {
  const dataDir = await makeTempDir('enclave-analytics-checkpoint-');
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const log = await AnalyticsLog.open({ dataDir, logger, today: TODAY });
  for (let i = 0; i < 20_000; i++) log.record('proj_a', { kind: 'search', at: AT + i, domain: 'docs', query: `unique ${i}`, results: 0 });
  t.true(log.texts.size <= 5_001, `open day: ${log.texts.size} texts`);
  await log.closeDaysBefore(TODAY + 1);
  t.true(log.texts.size <= 1_000, `closed: ${log.texts.size} texts`);
  const total = reportSearches(log, 'proj_a', {}, { limit: 10, offset: 0 }).totalSearches;
  t.is(total, 20_000, 'every search still counted (the tail in "(other)")');
  await log.close();
  const again = await AnalyticsLog.open({ dataDir, logger, today: TODAY + 1 });
  t.teardown(() => again.close());
  t.true(again.texts.size <= 1_000, `after a restart: ${again.texts.size} texts`);
  t.is(reportSearches(again, 'proj_a', {}, { limit: 10, offset: 0 }).totalSearches, 20_000);
});
