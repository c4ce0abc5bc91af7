import test from 'ava';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AnalyticsLog } from '../../src/features/analytics/AnalyticsLog.js';
import { classifyClient } from '../../src/features/analytics/classifyClient.js';
import { pageOfFile } from '../../src/features/analytics/recordPageView.js';
import { reportViews } from '../../src/features/analytics/AnalyticsOperations.js';
import { DAY_MS } from '../../src/platform/Clock.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { makeTempDir } from '../helpers/testAppliance.js';

test('client classes: browsers human; AI agents and crawlers ai; tools, probes and no agent ignored; machine copies always ai', (t) => {
  const cases: [string, ReturnType<typeof classifyClient>][] = [
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36', 'human'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Version/18.0 Mobile/15E148 Safari/604.1', 'human'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ClaudeBot/1.0; +claudebot@anthropic.com', 'ai'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'ai'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0)', 'ai'],
    ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'ai'],
    ['Mozilla/5.0 (compatible; SomeCrawler/3.1)', 'ai'],
    ['curl/8.5.0', 'ignored'],
    ['Wget/1.21.4', 'ignored'],
    ['python-requests/2.32.3', 'ignored'],
    ['Go-http-client/1.1', 'ignored'],
    ['kube-probe/1.30', 'ignored'],
    ['ELB-HealthChecker/2.0', 'ignored'],
    ['Prometheus/2.53', 'ignored'],
    ['', 'ignored'],
    ['something-odd/1.0', 'ignored'],
  ];
  for (const [ua, kind] of cases) t.is(classifyClient(ua, false), kind, ua);
  t.is(classifyClient(undefined, false), 'ignored');
  t.is(classifyClient('curl/8.5.0', true), 'ai', 'a Markdown copy or llms.txt fetch is ai whoever asks');
  t.is(classifyClient(undefined, true), 'ai');
});

test('which served files are pages: HTML pages, their Markdown copies and llms files; not assets or the 404 page', (t) => {
  t.deepEqual(pageOfFile('index.html'), { path: '/', machineCopy: false });
  t.deepEqual(pageOfFile('guides/start.html'), { path: '/guides/start', machineCopy: false });
  t.deepEqual(pageOfFile('guides/index.html'), { path: '/guides', machineCopy: false });
  t.deepEqual(pageOfFile('guides/start.md'), { path: '/guides/start', machineCopy: true });
  t.deepEqual(pageOfFile('index.md'), { path: '/', machineCopy: true });
  t.deepEqual(pageOfFile('llms.txt'), { path: '/llms.txt', machineCopy: true });
  t.deepEqual(pageOfFile('llms-full.txt'), { path: '/llms-full.txt', machineCopy: true });
  t.deepEqual(pageOfFile('search-agents.json'), { path: '/search-agents.json', machineCopy: true });
  for (const asset of ['404.html', '_assets/theme.abc.css', '_assets/app.js', 'sitemap.xml', 'logo.png', 'search-index.js'])
    t.is(pageOfFile(asset), null, asset);
});

test('a torn last event (a crash mid-append) is dropped on load and appends continue on a clean line', async (t) => {
  const dataDir = await makeTempDir('enclave-analytics-log-');
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const logger = createLogger('silent');
  const at = Date.parse('2026-03-01T10:00:00Z');
  const today = Math.floor(at / DAY_MS);
  const view = (path: string) => ({
    kind: 'view' as const,
    at,
    domain: 'docs',
    version: 'v1',
    path,
    ai: false,
    visitor: '00000000000000aa',
  });
  const first = await AnalyticsLog.open({ dataDir, logger, today });
  first.record('proj_a', view('/'));
  first.record('proj_a', view('/b'));
  await first.close();
  const file = join(dataDir, 'analytics', 'proj_a', '2026-03-01.jsonl');
  await appendFile(file, '{"k":"v","t":17');
  const second = await AnalyticsLog.open({ dataDir, logger, today });
  second.record('proj_a', view('/c'));
  await second.close();
  const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  t.is(lines.length, 3);
  for (const line of lines) t.notThrows(() => JSON.parse(line));
  const third = await AnalyticsLog.open({ dataDir, logger, today });
  t.teardown(() => third.close());
  t.deepEqual(reportViews(third, 'proj_a', {}, { limit: 10, offset: 0, byDay: false }).totals, { human: 3, ai: 0, total: 3 });
});

test('a damaged rollup is ignored and the day is rebuilt from its events', async (t) => {
  const dataDir = await makeTempDir('enclave-analytics-log-');
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const logger = createLogger('silent');
  const at = Date.parse('2026-03-01T10:00:00Z');
  const log = await AnalyticsLog.open({ dataDir, logger, today: Math.floor(at / DAY_MS) });
  log.record('proj_a', { kind: 'view', at, domain: 'docs', version: 'v1', path: '/', ai: true, visitor: '00000000000000aa' });
  await log.closeDaysBefore(Math.floor(at / DAY_MS) + 1);
  await log.close();
  const rollup = join(dataDir, 'analytics', 'proj_a', '2026-03-01.rollup.json');
  await writeFile(rollup, '{"rawBytes": 12, "views": [[');
  await mkdir(join(dataDir, 'analytics', 'not a project'), { recursive: true });
  const again = await AnalyticsLog.open({ dataDir, logger, today: Math.floor(at / DAY_MS) + 5 });
  t.teardown(() => again.close());
  t.is(again.stats.scannedDays, 1);
  t.deepEqual(reportViews(again, 'proj_a', {}, { limit: 10, offset: 0, byDay: false }).totals, { human: 0, ai: 1, total: 1 });
});
