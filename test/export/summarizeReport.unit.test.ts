import test from 'ava';
import { MAX_JOB_WARNINGS } from '../../src/features/exports/ExportJobRecord.js';
import { summarizeReport } from '../../src/features/exports/worker/summarizeReport.js';

test('a job keeps every failed page but only the first warnings, with the total count', (t) => {
  const brokenLinks = Array.from({ length: 150 }, (_, i) => ({ page: `p${i}`, href: `/gone-${i}`, reason: 'no such page' }));
  const summary = summarizeReport({
    pages: {
      expected: 200,
      rendered: 190,
      missing: 0,
      failed: Array.from({ length: 10 }, (_, i) => ({ path: `bad-${i}`, reason: 'Unexpected end of file' })),
    },
    missingInputs: [
      { input: 'https://api.example.test/openapi.json', reason: 'remote spec with no local copy', pages: ['api/get-a', 'api/get-b'] },
    ],
    brokenLinks,
    missingImages: [{ page: 'p1', src: '/img/x.png' }],
    unknownComponents: { Frobnicator: 3 },
    externalUrls: [{ page: 'p1', url: 'https://example.com' }],
    removedRemote: [],
    removedActive: [],
    warnings: [{ message: 'redirect /a points to /b, which is not in this export' }],
  });
  t.is(summary.failedPages.length, 10, 'failed pages are never capped');
  t.deepEqual(summary.failedPages[0], { path: 'bad-0', message: 'Unexpected end of file' });
  t.is(summary.warnings.length, MAX_JOB_WARNINGS);
  t.is(summary.warningCount, 1 + 150 + 1 + 1 + 1, 'external URLs are listed in the report, not warnings');
  t.deepEqual(
    summary.warnings[0],
    {
      kind: 'missingInput',
      page: null,
      message:
        'https://api.example.test/openapi.json: remote spec with no local copy; 2 declared page(s) not generated (api/get-a, api/get-b)',
    },
    'a missing input comes first: it loses whole pages',
  );
  t.deepEqual(summary.warnings[1], { kind: 'brokenLink', page: 'p0', message: 'broken link /gone-0 (no such page)' });
});
