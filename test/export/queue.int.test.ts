import AdmZip from 'adm-zip';
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestAppliance } from '../helpers/testAppliance.js';
import { makeTinySite, sha256, startExport, waitForJob } from './exportTestHelpers.js';

test('config.export.concurrency: 1 runs one job at a time, 2 runs two side by side', async (t) => {
  t.timeout(4 * 60_000);
  const a = await makeTinySite();
  const b = await makeTinySite();
  const sites = [
    { domain: 'a.test', source: a },
    { domain: 'b.test', source: b },
  ];
  for (const concurrency of [1, 2]) {
    const app = await startTestAppliance({ overrides: { sites, export: { concurrency } } });
    try {
      const first = await startExport(app, { domain: 'a.test' });
      const second = await startExport(app, { domain: 'b.test' });
      let most = 0;
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        const jobs = [first, second].map((j) => app.features.exports.jobs.find(j.jobId)!);
        most = Math.max(most, jobs.filter((j) => j.status === 'running').length);
        if (jobs.every((j) => j.status === 'completed' || j.status === 'failed')) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      t.is(most, concurrency, `at most ${concurrency} running at once`);
      for (const j of [first, second]) t.is(app.features.exports.jobs.find(j.jobId)!.status, 'completed');
    } finally {
      await app.close();
    }
  }
});

test('exportAndBundle runs a job to completion and hands back the zip; a failed export rejects with the reason', async (t) => {
  const source = await makeTinySite();
  const app = await startTestAppliance({
    overrides: {
      sites: [
        { domain: 'tiny.test', source },
        { domain: 'gone.test', source: '/nonexistent/enclave-docs' },
      ],
    },
  });
  t.teardown(() => app.close());
  const built = await app.features.exports.exportAndBundle('tiny.test', { version: 'boot-1' });
  t.regex(built.jobId, /^se_[0-9a-f]{16}$/);
  t.is(built.version, 'boot-1');
  t.true(existsSync(built.zipPath));
  t.is(sha256(await readFile(built.zipPath)), built.sha256);
  const job = await waitForJob(app, built.jobId, () => true);
  t.like(job.job, { status: 'completed', version: 'boot-1' });
  await t.throwsAsync(app.features.exports.exportAndBundle('gone.test'), { message: /source directory not found/ });
  await t.throwsAsync(app.features.exports.exportAndBundle('nowhere.test'), { message: /No site/ });
});

test('a site with a git ref exports the tree of that ref, not the working copy', async (t) => {
  const source = await makeTinySite();
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', source, ...args], {
      stdio: 'pipe',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t.invalid',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t.invalid',
      },
    });
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'docs');
  git('tag', 'v1');
  await writeFile(join(source, 'index.mdx'), '---\ntitle: Uncommitted title\n---\n\nNot released yet.\n');
  const app = await startTestAppliance({
    overrides: {
      sites: [
        { domain: 'tiny.test', source, ref: 'v1' },
        { domain: 'bad-ref.test', source, ref: 'no-such-ref' },
      ],
    },
  });
  t.teardown(() => app.close());
  const built = await app.features.exports.exportAndBundle('tiny.test');
  const index = new AdmZip(built.zipPath).readAsText('index.html');
  t.true(index.includes('Tiny page 0'));
  t.false(index.includes('Uncommitted title'));
  await t.throwsAsync(app.features.exports.exportAndBundle('bad-ref.test'), { message: /cannot read ref 'no-such-ref'/ });
});
