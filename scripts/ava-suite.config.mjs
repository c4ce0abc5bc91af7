// The ava configuration that `npm test` runs with (scripts/test.mjs passes it with --config):
// package.json's "ava" block, which `npx ava <file>` keeps using, plus the order files start in,
// and where the files are: compiled under build/test-js/ (scripts/build-test-js.mjs), or the .ts
// sources through tsx when scripts/test.mjs says ENCLAVE_TEST_FROM=ts (`npm test -- --tsx`).
// Every worker loads scripts/testCpuMeter.mjs, which notes the CPU its file burnt.
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

/** Where the compiled suite is, relative to the root (scripts/build-test-js.mjs builds it). */
export const COMPILED_DIR = 'build/test-js';

/** A test file's name as the sources have it (`test/x.int.test.ts`), compiled or not. */
export function sourceName(file) {
  const name = relative(root, file);
  return name.startsWith(`${COMPILED_DIR}/`) ? name.slice(COMPILED_DIR.length + 1).replace(/\.js$/, '.ts') : name;
}

/** Longest files first (in LONGEST_FIRST's order), then every other file alphabetically. */
export function longestFirst(a, b) {
  const ra = rank.get(sourceName(a)) ?? Number.POSITIVE_INFINITY;
  const rb = rank.get(sourceName(b)) ?? Number.POSITIVE_INFINITY;
  if (ra !== rb) return ra < rb ? -1 : 1;
  return a.localeCompare(b, [], { numeric: true });
}

/** The Docker build replay: `npm run test:docker` runs it alone (ENCLAVE_TEST_DOCKER=1), every other run leaves it out. */
const DOCKER_BUILD = 'test/docker/dockerBuild.int.test';
const docker = process.env.ENCLAVE_TEST_DOCKER === '1';
/** The test files of a run from `dir`, with extension `ext`. */
const filesOf = (dir, ext) =>
  docker ? [`${dir}${DOCKER_BUILD}.${ext}`] : [`${dir}test/**/*.test.${ext}`, `!${dir}${DOCKER_BUILD}.${ext}`];

const meter = '--import=./scripts/testCpuMeter.mjs';
const fromSources = { ...ava, files: filesOf('', 'ts'), nodeArguments: [...ava.nodeArguments, meter] };
const compiled = {
  ...ava,
  files: filesOf(`${COMPILED_DIR}/`, 'js'),
  extensions: ['js'],
  // No tsx: the point of compiling. Stack traces still name the .ts lines.
  nodeArguments: ['--enable-source-maps', meter],
};

export default { ...(process.env.ENCLAVE_TEST_FROM === 'ts' ? fromSources : compiled), sortTestFiles: longestFirst };
