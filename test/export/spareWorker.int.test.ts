import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { WORKER_NICENESS_VARIABLE } from '../../src/features/exports/worker/workerNiceness.js';
import { startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { processAlive as alive, waitUntil } from '../helpers/waitUntil.js';
import { finished, makeTinySite, startExport, waitForJob } from './exportTestHelpers.js';

// The suite runs export workers at niceness 0 (see workerNiceness.ts). This file checks that a
// spare is lowered as a job's worker is, so its workers get a niceness of their own; 1 and not
// the default 10, because beside CPU hogs a niceness-10 worker gets a few percent of a core and
// the warm-up below would wait on machine load (apiLatency.int.test.ts checks the default 10).
// Workers read the variable when they start, after this line has run.
const SPARE_NICENESS = 1;
process.env[WORKER_NICENESS_VARIABLE] = String(SPARE_NICENESS);

/** Waits until `check` returns something other than null or false (bounded only against hangs). */
const eventually = <T>(check: () => T | null | false, what: string): Promise<T> =>
  waitUntil(what, async () => {
    const value = check();
    return value === null || value === false ? null : value;
  });

async function applianceWithSpare(spareWorker: boolean): Promise<TestAppliance> {
  const source = await makeTinySite();
  return startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }], export: { spareWorker } } });
}

async function exportTiny(app: TestAppliance) {
  const started = await startExport(app, { domain: 'tiny.test' });
  const { job } = await waitForJob(app, started.jobId, finished);
  return { job, workerPid: app.features.exports.jobs.find(started.jobId)!.workerPid };
}

test('an idle queue keeps one loaded worker: the next export runs in it, it exits after that one job, a new spare follows, and stopping kills it', async (t) => {
  const app = await applianceWithSpare(true);
  t.teardown(() => app.close());
  const spare = await eventually(() => app.features.exports.sparePid(), 'a spare worker');
  t.is(getPriority(spare), SPARE_NICENESS, "a spare runs at the workers' lower priority");
  const first = await exportTiny(app);
  t.is(first.job.status, 'completed');
  t.is(first.workerPid, spare, 'the job ran in the spare');
  await eventually(() => !alive(spare) || null, 'the used worker to exit');
  const next = await eventually(() => {
    const pid = app.features.exports.sparePid();
    return pid !== spare ? pid : null;
  }, 'a new spare');
  t.true(alive(next));
  const second = await exportTiny(app);
  t.is(second.workerPid, next, 'the second job ran in the second spare');
  const third = await eventually(() => {
    const pid = app.features.exports.sparePid();
    return pid !== next ? pid : null;
  }, 'a third spare');
  await app.close();
  await eventually(() => !alive(third) || null, 'the spare to be gone after stop');
  t.pass();
});

test('a spare that died while waiting is not used: the next job forks its own worker and completes', async (t) => {
  const app = await applianceWithSpare(true);
  t.teardown(() => app.close());
  const spare = await eventually(() => app.features.exports.sparePid(), 'a spare worker');
  process.kill(spare, 'SIGKILL');
  await eventually(() => !alive(spare) || null, 'the spare to die');
  const run = await exportTiny(app);
  t.is(run.job.status, 'completed');
  t.truthy(run.workerPid);
  t.not(run.workerPid, spare);
});

test('with export.spareWorker off no worker waits, and exports still run', async (t) => {
  const app = await applianceWithSpare(false);
  t.teardown(() => app.close());
  const run = await exportTiny(app);
  t.is(run.job.status, 'completed');
  await new Promise((r) => setTimeout(r, 500));
  t.is(app.features.exports.sparePid(), null);
});

test("the first spare warms the code languages of the configured sites' pages; the spare after an export warms that export's first", async (t) => {
  const source = await makeTinySite();
  await writeFile(join(source, 'page-1.mdx'), '---\ntitle: Code\n---\n\n```python\nprint("hi")\n```\n');
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'tiny.test', source }], export: { spareWorker: true } } });
  t.teardown(() => app.close());
  const first = await eventually(() => app.features.exports.sparePid(), 'a spare worker');
  // Nothing exported yet: the languages of every site's pages (this one's and the bundled sample's),
  // python from the page, plus bash and json, which every site may need; each has a sample.
  const warmedFirst = await eventually(() => app.features.exports.spareWarmed(), 'the first spare to answer');
  for (const id of ['python', 'shellscript', 'json']) t.true(warmedFirst.loaded.includes(id) && warmedFirst.compiled.includes(id), id);
  t.false(warmedFirst.loaded.includes('rust'), 'rust is not on any page yet');
  await writeFile(join(source, 'page-1.mdx'), '---\ntitle: Code\n---\n\n```python\nprint("hi")\n```\n\n```rust\nfn main() {}\n```\n');
  const run = await exportTiny(app);
  t.is(run.workerPid, first);
  await eventually(() => (app.features.exports.sparePid() ?? first) !== first || null, 'the next spare');
  // Now rust too, as the export found it: what this export used comes first, then what the
  // other configured sites use (the sample's ini). All but rust and ini have a sample.
  const warmed = await eventually(() => app.features.exports.spareWarmed(), 'the warm-up to finish');
  t.deepEqual(warmed.loaded.slice(0, 4).sort(), ['json', 'python', 'rust', 'shellscript'], 'what this export used, first');
  t.true(warmed.loaded.includes('ini'), "and the other site's languages after them");
  t.deepEqual([...warmed.compiled].sort(), ['json', 'python', 'shellscript']);
  const again = await exportTiny(app);
  t.is(again.job.status, 'completed', 'a warmed spare runs its job as any other');
  t.is(again.job.pageCount, 2);
});
