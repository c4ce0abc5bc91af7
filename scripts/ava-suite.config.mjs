// The ava configuration that `npm test` runs with (scripts/test.mjs passes it with --config):
// package.json's "ava" block, which `npx ava <file>` keeps using, plus the order files start in.
//
// ava starts test files in the order it is given, `concurrency` at a time. Alphabetical order
// left the long files wherever their names fell, and a run could end with one of them still
// going on one core while the other had nothing left to do. Starting the longest files first
// (longest-processing-time-first scheduling) lets the many short files fill in beside them.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { ava } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * The files that take longest from start to end, longest first: each file's longest test in a
 * whole quiet run (ava's verbose durations; 2 cores), with the files that wait on a niceness-10
 * worker moved up, because machine load stretches them most. A file missing from the list runs
 * after these, alphabetically; a listed file that no longer exists is ignored, so the list only
 * needs care when a new file becomes one of the longest.
 */
export const LONGEST_FIRST = [
  'test/docker/dockerfile.int.test.ts',
  'test/faults/crashRecovery.int.test.ts',
  'test/export/restart.int.test.ts',
  'test/export/spareWorker.int.test.ts',
  'test/export/apiLatency.int.test.ts',
  'test/export/corpora.int.test.ts',
  'test/faults/damagedFiles.int.test.ts',
  'test/render/fastParse.int.test.ts',
  'test/export/retention.int.test.ts',
  'test/core/dataDirLockNamespaces.int.test.ts',
  'test/export/workerFailures.int.test.ts',
  'test/faults/slowClients.int.test.ts',
  'test/deploy/deployments.int.test.ts',
  'test/render/offline/zeroOutbound.browser.test.ts',
  'test/render/hastToHtml.int.test.ts',
  'test/render/renderSite.int.test.ts',
  'test/incremental/exportJobReuse.int.test.ts',
  'test/deploy/realExport.browser.test.ts',
  'test/render/themes/themeLayouts.browser.test.ts',
  'test/agent/agentRun.int.test.ts',
  'test/fuzz/api.int.test.ts',
  'test/fuzz/shapedRequests.int.test.ts',
  'test/export/queue.int.test.ts',
  'test/export/brokenExpression.int.test.ts',
  'test/docker/quickstart.int.test.ts',
  'test/faults/agentEscape.int.test.ts',
];

const rank = new Map(LONGEST_FIRST.map((file, at) => [file, at]));

/** Longest files first (in LONGEST_FIRST's order), then every other file alphabetically. */
export function longestFirst(a, b) {
  const ra = rank.get(relative(root, a)) ?? Number.POSITIVE_INFINITY;
  const rb = rank.get(relative(root, b)) ?? Number.POSITIVE_INFINITY;
  if (ra !== rb) return ra < rb ? -1 : 1;
  return a.localeCompare(b, [], { numeric: true });
}

export default { ...ava, sortTestFiles: longestFirst };
