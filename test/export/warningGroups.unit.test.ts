import test from 'ava';
import { MAX_GROUP_ENTRIES, MAX_JOB_WARNINGS, type ExportJobRecord } from '../../src/features/exports/ExportJobRecord.js';
import { presentExportJob } from '../../src/features/exports/routes/presentExportJob.js';
import { summarizeReport } from '../../src/features/exports/worker/summarizeReport.js';

/** A large site's report: broken links by the hundred, then what they would push out of a first-100 list. */
const report = {
  pages: { expected: 300, rendered: 300, missing: 0, failed: [] },
  missingInputs: [],
  brokenLinks: Array.from({ length: 250 }, (_, i) => ({ page: `p${i}`, href: `/gone-${i}`, reason: 'no such page' })),
  missingImages: [{ page: 'p1', src: '/img/x.png' }],
  unknownComponents: { ClientSelector: 4, SetupButton: 1 },
  externalUrls: [],
  removedRemote: [],
  removedActive: [],
  warnings: [{ message: 'font "Poppins" (asked for in docs.json) is not in the export' }, { message: 'an expression failed', page: 'p9' }],
};

test('warnings are grouped by kind with counts and first entries, so broken links hide nothing', (t) => {
  const summary = summarizeReport(report);
  // The flat list is unchanged: the first 100, all broken links here.
  t.is(summary.warnings.length, MAX_JOB_WARNINGS);
  t.true(summary.warnings.every((w) => w.kind === 'brokenLink'));
  t.is(summary.warningCount, 250 + 1 + 2 + 2);
  t.deepEqual(
    summary.warningGroups.map((g) => [g.kind, g.count, g.first.length]),
    [
      ['brokenLink', 250, MAX_GROUP_ENTRIES],
      ['missingImage', 1, 1],
      ['unknownComponent', 2, 2],
      ['other', 2, 2],
    ],
  );
  t.deepEqual(summary.warningGroups[0].first[0], { page: 'p0', message: 'broken link /gone-0 (no such page)' });
  t.deepEqual(summary.warningGroups[2].first[0], {
    page: null,
    message: 'unknown component <ClientSelector> used 4 times; its children were rendered',
  });
  t.deepEqual(summary.warningGroups[3].first[1], { page: 'p9', message: 'an expression failed' });
});

test('a job presents its groups; a record from before grouping presents none', (t) => {
  const summary = summarizeReport(report);
  const base = {
    id: 'se_0123456789abcdef',
    projectId: 'p',
    domain: 'docs.example.com',
    status: 'completed',
    progress: 100,
    pageCount: 300,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    requestedVersion: null,
    version: 'v',
    paths: null,
    strict: false,
    error: null,
    warnings: summary.warnings,
    warningCount: summary.warningCount,
    failedPages: [],
    expectedPages: 300,
    bundle: null,
    interruptions: 0,
  } satisfies ExportJobRecord;
  t.deepEqual(presentExportJob({ ...base, warningGroups: summary.warningGroups }).warningGroups, summary.warningGroups);
  t.deepEqual(presentExportJob(base).warningGroups, []);
});
