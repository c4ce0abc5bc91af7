#!/usr/bin/env node
// Part of `npm run lint`: every test file names its tier, and a unit test imports nothing that
// would make it an integration or browser test (see scripts/test.mjs for the tiers).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TIER = /\.(?:unit|int|browser)\.test\.ts$/;
/**
 * What a unit test may not import: servers and appliances, child processes and threads, the
 * network, Chromium, and ../shared. (It may use a private temp dir.) The test files' own helpers
 * that start those are listed by name.
 */
const NOT_IN_UNIT = [
  /^node:(?:child_process|http|https|net|worker_threads|cluster)$/,
  /^playwright/,
  /\/helpers\/(?:browser|spawnAppliance|runEnclave|sharedDir|serveStaticFolder|smallDisk|siteOnSmallDisk|recordOffOrigin|bundleServer|loggedAppliance)\.js$/,
  /(?:agentFixture|analyticsAppliance|feedbackHarness|fuzzTarget|crashHarness|browserSuite)\.js$/,
];
/** Names a unit test may not take from the shared test helpers (they start servers). */
const NOT_IN_UNIT_NAMES = /\b(?:startTestAppliance|applianceFetch)\b/;

/** Every file under `dir`, relative to the project root. */
function filesUnder(dir) {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(`${dir}/${entry.name}`) : [`${dir}/${entry.name}`],
  );
}

const problems = [];
const tests = filesUnder('test').filter((path) => path.endsWith('.test.ts'));
for (const path of tests) {
  if (!TIER.test(path)) {
    problems.push(`${path}: name it by its tier (*.unit.test.ts, *.int.test.ts or *.browser.test.ts)`);
    continue;
  }
  if (!path.endsWith('.unit.test.ts')) continue;
  const text = readFileSync(join(root, path), 'utf8');
  for (const [, names, from] of text.matchAll(/^import\s+(?:type\s+)?([^;]*?)\s*from\s+'([^']+)'/gm)) {
    if (NOT_IN_UNIT.some((re) => re.test(from)) || NOT_IN_UNIT_NAMES.test(names))
      problems.push(`${path}: a unit test imports ${from}; make it an .int (or .browser) test, or drop the import`);
  }
}
for (const problem of problems) console.error(problem);
if (problems.length > 0) process.exit(1);
console.log(`check-test-tiers: ${tests.length} test files, each named by tier; unit tests stay in-process`);
