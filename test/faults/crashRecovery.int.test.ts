// kill -9 at random moments during export jobs, agent jobs and bundle activation, N rounds each.
// Feedback ingestion and admin-key creation have their own kill -9 rounds in
// test/feedback/crash.int.test.ts and test/core/store.int.test.ts; they are not repeated here.
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INTERRUPTED_MESSAGE } from '../../src/features/exports/recoverInterruptedJobs.js';
import { readVersionOrigins } from '../../src/features/deployments/VersionOrigins.js';
import { siteDirs, versionLayout } from '../../src/features/deployments/versionLayout.js';
import { exportPaths } from '../../src/features/exports/ExportPaths.js';
import { makeDocsRemote, processGroupMembers, writeAgentScript, PRINT_HOST_PGID } from '../agent/agentFixture.js';
import { makeSiteFiles, writeBundle, type SiteFiles } from '../deploy/helpers/testBundles.js';
import { checkBundle, makeSyntheticCorpus, makeTinySite } from '../export/exportTestHelpers.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { crashRepeatedly, type Restarted } from './crashHarness.js';
import { processAlive, waitUntil } from '../helpers/waitUntil.js';

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

function childPids(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when there are none
  }
}

test(`kill -9 during export jobs (${ROUNDS} rounds): no job is left running, acknowledged jobs survive and finish with a valid bundle`, async (t) => {
  // A hang guard: three rounds of a 250-page export and two restarts each take minutes under load.
  t.timeout(15 * 60_000);
  const dir = await makeTempDir('enclave-crash-export-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
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
      // A hang guard: in npm run test:load the first pages took over waitUntil's default 150 s.
      await waitUntil(
        'the job to render pages',
        async () => {
          const job = (await (await victim.api(`/v1/static-export/jobs/${jobId}`)).json()) as { status: string; pageCount: number };
          return job.status !== 'queued' && (job.status !== 'running' || job.pageCount > 0);
        },
        4 * 60_000,
      );
      return { jobId, workers: childPids(victim.server.child.pid!) };
    },
    async check(app: Restarted, acted, round) {
      // The dead server's worker processes notice the closed IPC channel and exit.
      await waitUntil('orphaned export workers to exit', async () => !acted.workers.some(processAlive));
      const jobs = app.features.exports.jobs;
      for (const id of acknowledged) t.truthy(jobs.find(id), `round ${round}: acknowledged job ${id} survived the crash`);
      const recovered = jobs.find(acted.jobId)!;
      // Either the kill came after it finished, or boot recovery re-queued it (and counted the interruption).
      t.true(
        recovered.status === 'completed' || recovered.interruptions >= 1,
        `round ${round}: ${recovered.status}, interruptions ${recovered.interruptions}`,
      );
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
      t.false(
        jobs.list().some((j) => j.status === 'running' && j.id !== acted.jobId),
        'no other job is left running',
      );
      JSON.parse(await readFile(join(app.dataDir, 'exports.json'), 'utf8'));
    },
  });
  t.is(summary.survived, ROUNDS);
  t.log(
    `export: ${summary.injected} kills injected, ${summary.survived} survived; kill delays ${summary.killDelaysMs.join(', ')} ms after the first page; ${acknowledged.length} acknowledged jobs, 0 lost`,
  );
});

test(`kill -9 during agent runs (${ROUNDS} rounds): every acknowledged job is there, failed "interrupted", its agent stopped and its clone removed`, async (t) => {
  t.timeout(4 * 60_000);
  const { dir, remote } = await makeDocsRemote(t);
  const dataDir = join(dir, 'data');
  const pidDir = join(dir, 'pids');
  const agent = await writeAgentScript(dir, 'sleepy.sh', `mkdir -p ${pidDir}\n${PRINT_HOST_PGID} > ${pidDir}/$ENCLAVE_JOB_ID\nsleep 120`);
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
      const pgid = Number(
        await waitUntil('the agent to start', async () => existsSync(pidFile) && (await readFile(pidFile, 'utf8')).trim()),
      );
      // More jobs keep arriving until the kill; they wait in the run queue (concurrency 1).
      let stop = false;
      const writer = (async () => {
        for (let i = 0; i < 50 && !stop; i++) await create().catch(() => (stop = true));
      })();
      return {
        pgid,
        stopWriter: () => {
          stop = true;
          return writer;
        },
      };
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
  t.log(
    `agent: ${summary.injected} kills injected, ${summary.survived} survived; kill delays ${summary.killDelaysMs.join(', ')} ms; ${acknowledged.length} acknowledged jobs, 0 lost, 0 left active`,
  );
});

test("a job resumed after kill -9 is not broken by the dead server's export worker still writing its old output for a moment", async (t) => {
  // What an orphaned worker does between the kill and noticing its IPC channel is gone: it keeps
  // writing pages into the job's work directory. The resumed run must not fail because of it.
  const site = await makeTinySite(3);
  const dir = await makeTempDir('enclave-straggler-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'data');
  const overrides = { sites: [{ domain: 'tiny.test', source: site }] };
  const first = await startTestAppliance({ dataDir, overrides, serveSample: false });
  await first.stop();
  const jobId = 'se_00000000000000bb';
  const now = new Date().toISOString();
  const job = {
    id: jobId,
    projectId: first.projectId,
    domain: 'tiny.test',
    status: 'running',
    progress: 40,
    pageCount: 2,
    createdAt: now,
    updatedAt: now,
    startedAt: now,
    finishedAt: null,
    requestedVersion: null,
    version: null,
    paths: null,
    strict: false,
    error: null,
    warnings: 0,
    failedPages: 0,
    expectedPages: null,
    bundle: null,
    interruptions: 0,
  };
  await writeFile(join(dataDir, 'exports.json'), JSON.stringify({ schemaVersion: 1, jobs: [job] }));
  const workDir = join(exportPaths(dataDir, jobId).workDir, 'site', 'part-1');
  const straggler = spawn(
    process.execPath,
    [
      '-e',
      `const fs=require('fs');const d=${JSON.stringify(workDir)};fs.mkdirSync(d,{recursive:true});const end=Date.now()+1500;let i=0;while(Date.now()<end){try{fs.mkdirSync(d,{recursive:true});fs.writeFileSync(d+'/page-'+(i++%500)+'.html','<p>old</p>')}catch{}}`,
    ],
    { stdio: 'ignore' },
  );
  const stragglerDone = new Promise((resolve) => straggler.on('exit', resolve));
  t.teardown(() => void straggler.kill('SIGKILL'));
  await new Promise((r) => setTimeout(r, 100));
  const app = await startTestAppliance({ dataDir, overrides, serveSample: false });
  t.teardown(() => app.close());
  const done = await waitUntil(
    'the resumed job to finish',
    async () => {
      const j = app.features.exports.jobs.find(jobId)!;
      return j.status === 'completed' || j.status === 'failed' ? j : null;
    },
    120_000,
  );
  await stragglerDone;
  t.is(done.status, 'completed', `resumed job: ${done.error ?? ''}`);
});

/** A site big enough that verifying, extracting and precompressing it takes a while. */
function bulkSite(version: string): SiteFiles {
  const extra: SiteFiles = {};
  for (let i = 0; i < 250; i++)
    extra[`bulk/page-${i}.html`] = Buffer.from(
      `<!doctype html><meta name="enclave-version" content="${version}"><p>${i}</p>${`<p>filler ${i} ${version}</p>`.repeat(300)}`,
    );
  return makeSiteFiles(version, extra);
}

/** Every served page and asset belongs to `version` and the extracted files match that version's manifest, byte for byte. */
async function assertWholeVersion(
  t: ExecutionContext,
  app: Restarted,
  round: number,
  expected: SiteFiles | null,
  version: string | null,
): Promise<void> {
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
  // A layered version holds only what changed; the rest is read from the holders it names.
  const versions = siteDirs(app.dataDir).versions;
  const origins = await readVersionOrigins(layout.origins);
  const mismatched: string[] = [];
  for (const file of manifest.files) {
    const holder = origins?.files[file.path];
    const dir = holder === undefined ? layout.files : versionLayout(versions, origins!.holders[holder]).files;
    const bytes = await readFile(join(dir, file.path)).catch(() => null);
    if (!bytes || sha256(bytes) !== file.sha256) mismatched.push(file.path);
  }
  t.deepEqual(mismatched, [], `round ${round}: every extracted file matches the manifest`);
}

test(`kill -9 during bundle activation (${ROUNDS + 1} rounds, through the API and at startup): the live site is always one whole version, old or new`, async (t) => {
  t.timeout(5 * 60_000);
  const dir = await makeTempDir('enclave-crash-deploy-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'data');
  const rounds = ROUNDS + 1;
  // v0 is the base; round r tries to activate v(r+1).
  const bundles = await Promise.all(
    Array.from({ length: rounds + 1 }, async (_, r) => {
      const version = `v${r}`;
      const path = join(dir, `${version}.zip`);
      return { version, path, files: await writeBundle(path, version, { files: bulkSite(version) }) };
    }),
  );
  const byVersion = new Map(bundles.map((b) => [b.version, b]));
  let liveBefore = 'v0';
  const outcomes: string[] = [];

  const summary = await crashRepeatedly(t, {
    rounds,
    dataDir,
    // Round 0 starts with v0 configured (and waits for it); odd rounds activate the next
    // version from the config at startup; even rounds through POST /v1/deployments.
    env: (round) => {
      const configured = round === 0 ? bundles[0] : round % 2 === 1 ? bundles[round + 1] : null;
      return configured
        ? { ENCLAVE_STATIC_EXPORT__ENABLED: 'true', ENCLAVE_STATIC_EXPORT__BUNDLE_URL: configured.path }
        : unreachableBundleEnv(dir);
    },
    restartOverrides: {},
    killWindowMs: [0, 3000],
    async act(victim, round) {
      const answered: { version: string | null } = { version: null };
      if (round === 0) {
        await waitUntil('the base version to go live', async () => {
          const res = await fetch(`${victim.server.url}/`);
          return res.status === 200 && (await res.text()).includes('content="v0"');
        });
      }
      if (round % 2 === 0) {
        void victim
          .api('/v1/deployments', { method: 'POST', json: { bundleUrl: bundles[round + 1].path } })
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
      const status = (await (await app.api('/v1/deployments')).json()) as { active: { version: string } | null; running: unknown };
      t.is(status.running, null, `round ${round}: no deployment is left running`);
      const live = status.active?.version ?? null;
      outcomes.push(`${liveBefore}→${live ?? '503'}`);
      const attempted = bundles[round + 1].version;
      t.true(
        live === liveBefore || live === attempted,
        `round ${round}: live ${live} is the old (${liveBefore}) or the new (${attempted}) version`,
      );
      if (answered.version) t.is(live, answered.version, `round ${round}: an acknowledged activation is not lost`);
      await assertWholeVersion(t, app, round, live ? byVersion.get(live)!.files : null, live);
      const leftovers = (await readdir(siteDirs(app.dataDir).versions)).filter((name) => !/^dp_[0-9a-f]{16}$/.test(name));
      t.deepEqual(leftovers, [], `round ${round}: no staging directory is left behind`);
      liveBefore = live ?? liveBefore;
    },
  });
  t.is(summary.survived, rounds);
  t.log(
    `activation: ${summary.injected} kills injected, ${summary.survived} survived; kill delays ${summary.killDelaysMs.join(', ')} ms; live before→after each kill: ${outcomes.join(', ')}`,
  );
});
