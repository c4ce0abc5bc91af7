import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { summarizeReport } from '../../src/features/exports/worker/summarizeReport.js';
import { renderFixtureDir } from './renderFixtureDir.js';

const ANCHOR_SPEC = 'https://api.example.com/v2/openapi.json';
const TOP_SPEC = 'https://specs.example.com/main.yaml';

test('a mint.json anchor with a remote spec fills its section from the local copy the admin supplies', async (t) => {
  const { out, result } = await renderFixtureDir(t, 'mint-remote-openapi');
  const pages = result.report.pages;
  // index, ping, and the spec's three operations.
  t.is(pages.expected, 5);
  t.is(pages.rendered, 5);
  const widgets = await readFile(join(out, 'api-reference/widgets/list-widgets.html'), 'utf8');
  t.regex(widgets, /class="enclave-api-method enclave-api-method-get">GET</);
  // The anchor is a section of its own in the tab bar, holding the generated pages.
  t.regex(widgets, /<nav class="enclave-tabs"[\s\S]*?API Reference[\s\S]*?<\/nav>/);
  t.regex(widgets, /<nav id="enclave-sidebar"[\s\S]*?Create a widget[\s\S]*?<\/nav>/);
  // The top-level spec has no local copy: listed as a missing input, the page naming its operation still renders.
  t.deepEqual(
    result.report.missingInputs.map((m) => m.input),
    [TOP_SPEC],
  );
});

test('without the local copy the anchor spec is a missing input, counted in expectedPages and first among the job warnings', async (t) => {
  const { result } = await renderFixtureDir(t, 'mint-remote-openapi', {}, (src) => rm(join(src, 'openapi'), { recursive: true }));
  const missing = result.report.missingInputs;
  t.deepEqual(
    missing.map((m) => m.input),
    [ANCHOR_SPEC, TOP_SPEC],
  );
  t.regex(missing[0].reason, /remote OpenAPI spec: not fetched offline, and no local copy/);
  t.is(result.report.pages.expected, result.report.pages.rendered + result.report.pages.missing);
  t.true(result.report.pages.missing >= 1);
  const summary = summarizeReport(result.report);
  t.is(summary.warnings[0].kind, 'missingInput');
  t.true(summary.warnings[0].message.startsWith(ANCHOR_SPEC));
  t.is(summary.warningGroups[0].kind, 'missingInput');
  t.is(summary.warningGroups[0].count, 2);
});
