import test from 'ava';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runFeedback } from '../../src/cli/feedback.js';
import { ManualClock } from '../../src/platform/Clock.js';
import type { FeedbackSubmission } from '../../src/features/feedback/FeedbackEntry.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { startFeedbackHarness, type FeedbackHarness } from './feedbackHarness.js';

async function run(h: FeedbackHarness, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.on('data', (c) => (o += c));
  err.on('data', (c) => (e += c));
  const code = await runFeedback(args, {
    out,
    err,
    env: { ENCLAVE_URL: h.url, ENCLAVE_ADMIN_KEY: h.key, ENCLAVE_PROJECT_ID: h.projectId },
  });
  return { code, out: o, err: e };
}

async function seed(h: FeedbackHarness, n: number, make: (i: number) => FeedbackSubmission): Promise<void> {
  for (let i = 0; i < n; i++) await h.module.log.append(h.projectId, make(i), new Date(Date.UTC(2026, 2, 1, 0, 0, 0, i)));
}

test('list: table with filters, control characters made visible; --json; usage errors', async (t) => {
  const h = await startFeedbackHarness({ overrides: { analytics: { requestsPerHour: 1000 } } });
  t.teardown(() => h.close());
  await seed(h, 3, (i) =>
    i === 2
      ? { source: 'contextual', path: '/', helpful: false, comment: 'evil \u001b[31mred\u001b[0m' }
      : { source: 'code_snippet', path: '/guides/start', code: 'x' },
  );
  const table = await run(h, ['list', '--source', 'contextual']);
  t.is(table.code, 0, table.err);
  t.regex(table.out, /^CREATED\s+ID\s+SOURCE\s+STATUS\s+SITE\s+PATH\s+HELPFUL\s+COMMENT/);
  t.true(table.out.includes('evil \\u001b[31mred'), 'escape sequences are shown, not executed by the terminal');
  t.false(table.out.includes('\u001b'));
  t.is(table.out.trim().split('\n').length, 2);
  const json = await run(h, ['list', '--json', '--limit', '2']);
  const page = JSON.parse(json.out) as { feedback: unknown[]; hasMore: boolean; nextCursor: string };
  t.is(page.feedback.length, 2);
  t.true(page.hasMore);
  const next = await run(h, ['list', '--json', '--limit', '2', '--cursor', page.nextCursor]);
  t.is((JSON.parse(next.out) as { feedback: unknown[] }).feedback.length, 1);
  const bad = await run(h, ['list', '--limit', '0', '--from', 'soon']);
  t.is(bad.code, 3);
  t.true(bad.err.includes('query.limit') && bad.err.includes('query.dateFrom'));
  t.is((await run(h, ['list', '--colour'])).code, 2);
  t.is((await run(h, ['export'])).code, 2, '--format is required');
  t.is((await run(h, ['frobnicate'])).code, 2);
});

test('export jsonl follows cursors to the end with progress; csv quotes and defuses formulas', async (t) => {
  const h = await startFeedbackHarness({ overrides: { analytics: { requestsPerHour: 1000 } } });
  t.teardown(() => h.close());
  await seed(h, 250, (i) => ({
    source: 'contextual',
    path: '/',
    helpful: i % 2 === 0,
    comment: i === 7 ? '=HYPERLINK("http://x","a, b")\nline 2' : `c${i}`,
  }));
  const dir = await makeTempDir('enclave-fb-cli-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const jsonl = await run(h, ['export', '--format', 'jsonl', '--out', join(dir, 'all.jsonl')]);
  t.is(jsonl.code, 0, jsonl.err);
  t.regex(jsonl.err, /exported 250 entries to /);
  t.regex(jsonl.err, /exported 100 entries/, 'progress per page');
  const lines = (await readFile(join(dir, 'all.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string });
  t.is(lines.length, 250);
  t.is(new Set(lines.map((l) => l.id)).size, 250);
  const csv = await run(h, ['export', '--format', 'csv', '--from', '2026-03-01', '--status', 'pending']);
  t.is(csv.code, 0);
  const rows = csv.out.split('\r\n');
  t.is(rows[0], 'id,createdAt,source,status,path,helpful,comment,contact,code,filename,lang,domain');
  t.true(csv.out.includes(`"'=HYPERLINK(""http://x"",""a, b"")\nline 2"`));
});

test('export waits out a 429 for Retry-After and carries on', async (t) => {
  const clock = new ManualClock('2026-03-10T00:00:00.000Z');
  const h = await startFeedbackHarness({ clock, overrides: { analytics: { requestsPerHour: 2 } } });
  t.teardown(() => h.close());
  await seed(h, 250, () => ({ source: 'thumbs_only', path: '/', helpful: true }));
  t.is((await h.api('/feedback?limit=1')).status, 200); // opens the window
  clock.advance(3599_000); // one second of the hour left
  const timer = setTimeout(() => clock.advance(2000), 400); // the hour ends while the CLI waits
  t.teardown(() => clearTimeout(timer));
  const result = await run(h, ['export', '--format', 'jsonl']);
  t.is(result.code, 0, result.err);
  t.regex(result.err, /rate limited; waiting 1s/);
  t.is(result.out.trim().split('\n').length, 250);
});
