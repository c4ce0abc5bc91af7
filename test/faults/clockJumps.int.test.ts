// The wall clock jumping forwards and backwards (NTP step, VM resume, a wrong RTC fixed by hand):
// link expiry follows the clock without crashing, rate-limit windows never lock a caller out or
// answer a nonsensical Retry-After, and no cron task deletes or archives anything early.
import test from 'ava';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/Clock.js';
import type { AgentFeature } from '../../src/features/agent/agentFeature.js';
import type { FeedbackFeature } from '../../src/features/feedback/feedbackFeature.js';
import { makeDocsRemote, runJob, writeAgentScript } from '../agent/agentFixture.js';
import { writeBundle } from '../deploy/helpers/testBundles.js';
import { exportToBundle, makeTinySite } from '../export/exportTestHelpers.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

test('signed link expiry: valid, then the clock jumps past expiry → 403 link expired, back → valid again; far jumps never 5xx', async (t) => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const site = await makeTinySite(2);
  const app = await startTestAppliance({ clock, overrides: { sites: [{ domain: 'tiny.test', source: site }] } });
  t.teardown(() => app.close());
  const { link } = await exportToBundle(app, 'tiny.test');
  const get = async () => {
    const res = await fetch(link.bundleUrl);
    const body = res.status === 200 ? null : ((await res.json()) as { error: string });
    if (res.status === 200) await res.arrayBuffer();
    return { status: res.status, error: body?.error };
  };
  t.deepEqual(await get(), { status: 200, error: undefined });
  clock.advance(HOUR + 1000);
  t.deepEqual(await get(), { status: 403, error: 'link expired' });
  clock.advance(-(HOUR + 1000));
  t.deepEqual(await get(), { status: 200, error: undefined }, 'valid again once the clock is back');
  const seen: number[] = [];
  for (const at of [
    '1970-01-01T00:00:00.000Z',
    '1969-07-20T20:17:00.000Z',
    '2099-12-31T23:59:59.000Z',
    '2262-04-11T00:00:00.000Z',
    '2026-06-01T12:59:59.000Z',
  ]) {
    clock.set(at);
    const { status } = await get();
    seen.push(status);
    t.true(status === 200 || status === 403, `${at} → ${status}`);
  }
  t.is(seen.at(-1), 200, 'a second before expiry still works');
  // A link issued while the clock is far ahead expires relative to that clock, and is valid when it jumps back.
  clock.set('2030-01-01T00:00:00.000Z');
  const ahead = (await (await app.api(`/v1/static-export/jobs/${link.jobId}/bundle`, { method: 'POST' })).json()) as {
    bundleUrl: string;
    expiresAt: string;
  };
  t.is(ahead.expiresAt, '2030-01-01T01:00:00.000Z');
  clock.set('2026-06-01T12:00:00.000Z');
  t.is((await fetch(ahead.bundleUrl, { method: 'HEAD' })).status, 200);
  t.log(`link checks across jumps: ${seen.join(', ')}`);
});

test('rate-limit windows through HTTP (analytics): a backwards jump opens a fresh window, Retry-After stays within the window, a forward jump resets', async (t) => {
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const app = await startTestAppliance({ clock, overrides: { analytics: { requestsPerHour: 3 } } });
  t.teardown(() => app.close());
  const path = `/v1/analytics/${app.projectId}/feedback`;
  const hit = async () => {
    const res = await app.api(path);
    await res.arrayBuffer();
    return { status: res.status, retryAfter: res.headers.get('retry-after'), rateLimit: res.headers.get('ratelimit') };
  };
  for (let i = 0; i < 3; i++) t.is((await hit()).status, 200);
  const limited = await hit();
  t.is(limited.status, 429);
  t.is(limited.retryAfter, '3600');
  clock.advance(-3 * HOUR);
  const afterBack = await hit();
  t.is(afterBack.status, 200, 'a clock set back does not lock the caller out for three hours');
  for (let i = 0; i < 2; i++) t.is((await hit()).status, 200);
  clock.advance(30 * 60_000);
  const mid = await hit();
  t.is(mid.status, 429);
  const retry = Number(mid.retryAfter);
  t.true(retry >= 1 && retry <= 3600, `Retry-After ${mid.retryAfter} is within one window`);
  t.regex(mid.rateLimit ?? '', /r=0/);
  clock.advance(10 * 365 * DAY);
  t.is((await hit()).status, 200, 'a jump far forward starts a new window');
  clock.set(0);
  t.is((await hit()).status, 200, 'and so does a jump to the epoch');
});

test('cron task bodies across clock jumps: export retention, agent archiving and feedback retention never act early after a backwards jump', async (t) => {
  t.timeout(4 * 60_000);
  const t0 = Date.parse('2026-01-15T12:00:00.000Z');
  const clock = new ManualClock(t0);
  const site = await makeTinySite(2);
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'noop.sh', 'true');
  const bundles = await makeTempDir('enclave-clock-bundle-');
  t.teardown(() => rm(bundles, { recursive: true, force: true }));
  const app = await startTestAppliance({
    clock,
    overrides: {
      sites: [
        { domain: 'tiny.test', source: site },
        { domain: 'docs.test.internal', source: site },
      ],
      export: { retentionDays: 30 },
      agent: { command: [agent], repository: remote, archiveAfterDays: 30 },
      feedback: { retentionDays: 30, perClientPerMinute: 1000, perPagePerMinute: 1000, globalPerMinute: 1000 },
    },
  });
  t.teardown(() => app.close());
  const agentModule = app.features.all.find((m) => m.name === 'agent') as AgentFeature;
  const feedbackModule = app.features.all.find((m) => m.name === 'feedback') as FeedbackFeature;
  const zip = join(bundles, 'v1.zip');
  await writeBundle(zip, 'v1');
  t.is((await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: zip } })).status, 200);

  // Work done at t0, then at t0 + 50 days (the clock ran ahead), then the clock is set back.
  const exportA = (await exportToBundle(app, 'tiny.test')).job.jobId;
  const agentA = (await runJob(app, { prompt: 'a' })).id as string;
  await postFeedback(app);
  clock.set(t0 + 50 * DAY); // 2026-03-06: a later month, so its own feedback segment
  const exportB = (await exportToBundle(app, 'tiny.test')).job.jobId;
  const agentB = (await runJob(app, { prompt: 'b' })).id as string;
  const feedbackB = await postFeedback(app);

  const runTasks = async () => ({
    exports: (await app.features.exports.cleanup(clock.now())).removedJobs,
    archived: await agentModule.archiveStaleJobs(clock.now()),
    feedback: (await feedbackModule.applyRetention(clock.now())).length,
  });
  const keptExports = () => [exportA, exportB].filter((id) => app.features.exports.jobs.find(id));
  const log: string[] = [];

  // Backwards: to t0 - 10 days. Nothing is old enough relative to this clock.
  clock.set(t0 - 10 * DAY);
  t.deepEqual(await runTasks(), { exports: [], archived: 0, feedback: 0 }, 'after a backwards jump nothing is removed');
  log.push(`t0-10d: nothing`);
  // Back to t0 + 25 days: A is 25 days old, B lies in the future. Still nothing.
  clock.set(t0 + 25 * DAY);
  t.deepEqual(await runTasks(), { exports: [], archived: 0, feedback: 0 });
  // t0 + 31 days: A's time has come; B (stamped t0 + 50 d) is untouched. Feedback goes by whole
  // monthly segments, so January's goes only once the whole month is 30 days old (below).
  clock.set(t0 + 31 * DAY);
  const due = await runTasks();
  t.deepEqual(due, { exports: [exportA], archived: 1, feedback: 0 });
  t.deepEqual(keptExports(), [exportB]);
  t.is(await agentStatus(app, agentA), 'archived');
  t.is(await agentStatus(app, agentB), 'completed', 'B was stamped in the clock’s future and is not archived early');
  log.push('t0+31d: export A removed, agent A archived');
  // 2026-03-04: January ended more than 30 days ago; March (B) is kept.
  clock.set(t0 + 48 * DAY);
  t.deepEqual(await runTasks(), { exports: [], archived: 0, feedback: 1 });
  t.deepEqual(await feedbackIds(app), [feedbackB], 'only the January entry went');
  log.push('t0+48d: January feedback segment dropped');
  // Backwards again, far: nothing more goes.
  clock.set(t0 - 365 * DAY);
  t.deepEqual(await runTasks(), { exports: [], archived: 0, feedback: 0 });
  // B goes only once it is really 30 days old.
  clock.set(t0 + 80 * DAY - 1);
  t.deepEqual(await runTasks(), { exports: [], archived: 0, feedback: 0 }, 'one millisecond short');
  clock.set(t0 + 81 * DAY);
  t.deepEqual(await runTasks(), { exports: [exportB], archived: 1, feedback: 0 });
  t.is(await agentStatus(app, agentB), 'archived');
  t.deepEqual(await feedbackIds(app), [feedbackB], 'March is not over for 30 days yet');
  clock.set(t0 + 107 * DAY); // 2026-05-02
  t.deepEqual(await runTasks(), { exports: [], archived: 0, feedback: 1 });
  t.deepEqual(await feedbackIds(app), []);
  log.push('t0+81d: export B removed, agent B archived; t0+107d: March feedback dropped');
  t.log(log.join('; '));
});

async function postFeedback(app: TestAppliance): Promise<string> {
  const res = await fetch(`${app.url}/_enclave/feedback`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ source: 'thumbs_only', path: '/guides/start', helpful: true }),
  });
  if (res.status !== 201) throw new Error(`feedback → ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

async function agentStatus(app: TestAppliance, id: string): Promise<string> {
  return ((await (await app.api(`/v2/agent/${app.projectId}/job/${id}`)).json()) as { status: string }).status;
}

async function feedbackIds(app: TestAppliance): Promise<string[]> {
  const page = (await (await app.api(`/v1/analytics/${app.projectId}/feedback?limit=100`)).json()) as { feedback: { id: string }[] };
  return page.feedback.map((e) => e.id);
}
