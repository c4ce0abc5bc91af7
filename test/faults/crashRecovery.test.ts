// kill -9 at random moments during export jobs, agent jobs and bundle activation, N rounds each.
// Feedback ingestion and admin-key creation have their own kill -9 rounds in
// test/feedback/crash.test.ts and test/core/store.test.ts; they are not repeated here.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INTERRUPTED_MESSAGE } from '../../src/domain/exports/recoverInterruptedJobs.js';
import { siteDirs, versionLayout } from '../../src/domain/deployments/versionLayout.js';
import { exportPaths } from '../../src/domain/exports/ExportPaths.js';
import { makeDocsRemote, processGroupMembers, writeAgentScript } from '../agent/agentFixture.js';
import { makeSiteFiles, writeBundle, type SiteFiles } from '../deploy/helpers/testBundles.js';
import { checkBundle, makeSyntheticCorpus } from '../export/exportTestHelpers.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { crashRepeatedly, waitUntil, type Restarted } from './crashHarness.js';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);

/**
 * A configured bundle that can't be fetched: the appliance then skips the first-start sample
 * export (it only runs when no deployment is configured), so the rounds measure only the work
 * under test. The failed fetch just marks readiness degraded.
 */
function unreachableBundleEnv(dir: string): Record<string, string> {
  return { ENCLAVE_STATIC_EXPORT__ENABLED: 'true', ENCLAVE_STATIC_EXPORT__BUNDLE_URL: join(dir, 'no-such-bundle.zip') };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

test(`kill -9 during export jobs (${ROUNDS} rounds): no job is left running, acknowledged jobs survive and finish with a valid bundle`, async (t) => {
  t.timeout(6 * 60_000);
  const dir = await makeTempDir('enclave-crash-export-');
  const dataDir = join(dir, 'data');
  const source = await makeSyntheticCorpus(250, { parent: dir });
  const configFile = join(dir, 'config.json');
  await writeFile(configFile, JSON.stringify({ sites: [{ domain: 'crash.test', source }] }));
  const acknowledged: string[] = [];

  const summary = await crashRepeatedly(t, {
    rounds: ROUNDS,
    dataDir,
    env: () => ({ ENCLAVE_CONFIG: configFile, ...unreachableBundleEnv(dir) }),
    restartOverrides: { sites: [{ domain: 'crash.test', source }] },
    killWindowMs: [0, 4000],
    async act(victim) {
      const res = await victim.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'crash.test' } });
      if (res.status !== 202) throw new Error(`POST job → ${res.status} ${await res.text()}`);
      const { jobId } = (await res.json()) as { jobId: string };
      acknowledged.push(jobId);
      await waitUntil('the job to render pages', async () => {
        const job = (await (await victim.api(`/v1/static-export/jobs/${jobId}`)).json()) as { status: string; pageCount: number };
        return job.status !== 'queued' && (job.status !== 'running' || job.pageCount > 0);
      });
      return { jobId, workers: childPids(victim.server.child.pid!) };
    },
    async check(app: Restarted, acted, round) {
      // The dead server's worker processes notice the closed IPC channel and exit.
      await waitUntil('orphaned export workers to exit', async () => !acted.workers.some(alive), 10_000);
      const jobs = app.modules.exports.jobs;
      for (const id of acknowledged) t.truthy(jobs.find(id), `round ${round}: acknowledged job ${id} survived the crash`);
      const recovered = jobs.find(acted.jobId)!;
      // Either the kill came after it finished, or boot recovery re-queued it (and counted the interruption).
      t.true(recovered.status === 'completed' || recovered.interruptions >= 1, `round ${round}: ${recovered.status}, interruptions ${recovered.interruptions}`);
      const done = await waitUntil(
        'the resumed job to finish',
        async () => {
          const job = jobs.find(acted.jobId)!;
          return job.status === 'completed' || job.status === 'failed' ? job : null;
        },
        180_000,
      );
      t.is(done.status, 'completed', `round ${round}: ${done.error ?? ''}`);
      t.not(done.error, INTERRUPTED_MESSAGE);
      const zip = await readFile(join(exportPaths(app.dataDir, done.id).bundleDir, done.bundle!.file));
      t.is(sha256(zip), done.bundle!.sha256, `round ${round}: the zip is the one the record names`);
      t.deepEqual(checkBundle(zip).problems, [], `round ${round}: every file matches the manifest`);
      t.false(jobs.list().some((j) => j.status === 'running' && j.id !== acted.jobId), 'no other job is left running');
      JSON.parse(await readFile(join(app.dataDir, 'exports.json'), 'utf8'));
    },
  });
  t.is(summary.survived, ROUNDS);
  t.log(`export: ${summary.injected} kills injected, ${summary.survived} survived; kill delays ${summary.killDelaysMs.join(', ')} ms after the first page; ${acknowledged.length} acknowledged jobs, 0 lost`);
});

test(`kill -9 during agent runs (${ROUNDS} rounds): every acknowledged job is there, failed "interrupted", its agent stopped and its clone removed`, async (t) => {
  t.timeout(4 * 60_000);
  const { dir, remote } = await makeDocsRemote(t);
  const dataDir = join(dir, 'data');
  const pidDir = join(dir, 'pids');
  const agent = await writeAgentScript(dir, 'sleepy.sh', `mkdir -p ${pidDir}\necho $$ > ${pidDir}/$ENCLAVE_JOB_ID\nsleep 120`);
  const acknowledged: string[] = [];
  const agentEnv = { ENCLAVE_AGENT__COMMAND: JSON.stringify([agent]), ENCLAVE_AGENT__REPOSITORY: remote };

  const summary = await crashRepeatedly(t, {
    rounds: ROUNDS,
    dataDir,
    env: () => ({ ...agentEnv, ...unreachableBundleEnv(dir) }),
    restartOverrides: { agent: { command: [agent], repository: remote } },
    killWindowMs: [0, 1500],
    async act(victim) {
      const create = async () => {
        const res = await victim.api(`/v2/agent/${victim.projectId}/job`, { method: 'POST', json: { prompt: 'sleep on it' } });
        if (res.status !== 201) throw new Error(`create → ${res.status} ${await res.text()}`);
        const { id } = (await res.json()) as { id: string };
        acknowledged.push(id);
        return id;
      };
      const running = await create();
      const pidFile = join(pidDir, running);
      const pgid = Number(await waitUntil('the agent to start', async () => existsSync(pidFile) && (await readFile(pidFile, 'utf8')).trim()));
      // More jobs keep arriving until the kill; they wait in the run queue (concurrency 1).
      let stop = false;
      const writer = (async () => {
        for (let i = 0; i < 50 && !stop; i++) await create().catch(() => (stop = true));
      })();
      return { pgid, stopWriter: () => ((stop = true), writer) };
    },
    async check(app, acted, round) {
      await acted.stopWriter();
      for (const id of acknowledged) {
        const res = await app.api(`/v2/agent/${app.projectId}/job/${id}`);
        t.is(res.status, 200, `round ${round}: acknowledged job ${id} survived`);
        const job = (await res.json()) as { status: string; error?: string };
        t.is(job.status, 'failed', `round ${round}: ${id} is not left active`);
        t.is(job.error, 'interrupted');
      }
      t.deepEqual(processGroupMembers(acted.pgid), [], `round ${round}: the orphaned agent was stopped`);
      t.deepEqual(await readdir(join(app.dataDir, 'agent', 'work')).catch(() => []), [], 'scratch clones removed');
    },
  });
  t.is(summary.survived, ROUNDS);
  t.log(`agent: ${summary.injected} kills injected, ${summary.survived} survived; kill delays ${summary.killDelaysMs.join(', ')} ms; ${acknowledged.length} acknowledged jobs, 0 lost, 0 left active`);
});

/** A site big enough that verifying, extracting and precompressing it takes a while. */
function bulkSite(version: string): SiteFiles {
  const extra: SiteFiles = {};
  for (let i = 0; i < 250; i++) extra[`bulk/page-${i}.html`] = Buffer.from(`<!doctype html><meta name="enclave-version" content="${version}"><p>${i}</p>${`<p>filler ${i} ${version}</p>`.repeat(300)}`);
  return makeSiteFiles(version, extra);
}

/** Every served page and asset belongs to `version` and the extracted files match that version's manifest, byte for byte. */
async function assertWholeVersion(t: ExecutionContext, app: Restarted, round: number, expected: SiteFiles | null, version: string | null): Promise<void> {
  const home = await fetch(`${app.url}/`);
  const html = await home.text();
  if (!version || !expected) {
    t.is(home.status, 503, `round ${round}: no version active → the 503 page`);
    t.regex(html, /<html/i);
    return;
  }
  t.is(home.status, 200, `round ${round}: GET /`);
  const pages = ['/', '/guides/start', '/reference', '/bulk/page-0', '/bulk/page-249'];
  for (const path of pages) {
    const res = await fetch(`${app.url}${path}`, { headers: { 'Accept-Encoding': 'gzip' } });
    const body = await res.text();
    t.is(res.status, 200, `round ${round}: ${path}`);
    t.is(/name="enclave-version" content="([^"]+)"/.exec(body)?.[1], version, `round ${round}: ${path} is version ${version}`);
  }
  for (const [path, data] of Object.entries(expected)) {
    if (!path.endsWith('.css') && !path.endsWith('.js')) continue;
    const res = await fetch(`${app.url}/${path}`, { headers: { 'Accept-Encoding': 'identity' } });
    t.is(sha256(Buffer.from(await res.arrayBuffer())), sha256(data), `round ${round}: asset ${path} is version ${version}`);
  }
  const status = (await (await app.api('/v1/deployments')).json()) as { active: { id: string } };
  const layout = versionLayout(siteDirs(app.dataDir).versions, status.active.id);
  const manifest = JSON.parse(await readFile(layout.manifest, 'utf8')) as { version: string; files: { path: string; sha256: string }[] };
  t.is(manifest.version, version, `round ${round}: the kept manifest names the live version`);
  const mismatched: string[] = [];
  for (const file of manifest.files) {
    const bytes = await readFile(join(layout.files, file.path)).catch(() => null);
    if (!bytes || sha256(bytes) !== file.sha256) mismatched.push(file.path);
  }
  t.deepEqual(mismatched, [], `round ${round}: every extracted file matches the manifest`);
}

test(`kill -9 during bundle activation (${ROUNDS + 1} rounds, at startup and through the API): the live site is always one whole version`, async (t) => {
  t.timeout(5 * 60_000);
  const dir = await makeTempDir('enclave-crash-deploy-');
  const dataDir = join(dir, 'data');
  const rounds = ROUNDS + 1;
  const bundles = await Promise.all(
    Array.from({ length: rounds }, async (_, r) => {
      const version = `v${r}`;
      const path = join(dir, `${version}.zip`);
      return { version, path, files: await writeBundle(path, version, { files: bulkSite(version) }) };
    }),
  );
  const byVersion = new Map(bundles.map((b) => [b.version, b]));
  let acknowledgedVersion: string | null = null;
  let outcomes: string[] = [];

  const summary = await crashRepeatedly(t, {
    rounds,
    dataDir,
    // Even rounds: the configured bundle is activated at startup. Odd rounds: POST /v1/deployments.
    env: (round) => (round % 2 === 0 ? { ENCLAVE_STATIC_EXPORT__ENABLED: 'true', ENCLAVE_STATIC_EXPORT__BUNDLE_URL: bundles[round].path } : unreachableBundleEnv(dir)),
    restartOverrides: {},
    killWindowMs: [0, 2500],
    async act(victim, round) {
      const answered: { version: string | null } = { version: null };
      if (round % 2 === 1) {
        void victim
          .api('/v1/deployments', { method: 'POST', json: { bundleUrl: bundles[round].path } })
          .then(async (res) => {
            // Only a 200 `active` answer acknowledges that this version went live.
            const body = (await res.json()) as { status: string; version: string };
            if (res.status === 200 && body.status === 'active') answered.version = body.version;
          })
          .catch(() => {});
      }
      return answered;
    },
    async check(app, answered, round) {
      if (answered.version) acknowledgedVersion = answered.version;
      const status = (await (await app.api('/v1/deployments')).json()) as { active: { version: string } | null; running: unknown };
      t.is(status.running, null, `round ${round}: no deployment is left running`);
      const live = status.active?.version ?? null;
      outcomes.push(live ?? '503');
      if (acknowledgedVersion) t.not(live, null, `round ${round}: an acknowledged activation (${acknowledgedVersion}) is not lost`);
      await assertWholeVersion(t, app, round, live ? byVersion.get(live)!.files : null, live);
      const leftovers = (await readdir(siteDirs(app.dataDir).versions)).filter((name) => !/^dp_[0-9a-f]{16}$/.test(name));
      t.deepEqual(leftovers, [], `round ${round}: no staging directory is left behind`);
    },
  });
  t.is(summary.survived, rounds);
  t.log(`activation: ${summary.injected} kills injected, ${summary.survived} survived; kill delays ${summary.killDelaysMs.join(', ')} ms; live after each restart: ${outcomes.join(', ')}`);
  outcomes = [];
});
