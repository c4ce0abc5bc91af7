import { readFile, writeFile } from 'node:fs/promises';
import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { startGitHttpServer } from '../helpers/gitHttpServer.js';
import { startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { makeDocsRepo } from './gitSourceFixture.js';

/**
 * Bound on a wait for an export and deploy: a hang guard, far above the seconds they take on a
 * quiet machine, since each test's appliance exports while other suites load the machine.
 */
const HANG_GUARD_MS = 300_000;
const DOMAIN = 'docs.auto.test';

/** An appliance with a git-sourced site, an agent that prints its prompt, and two automations (one unscheduled). */
async function world(t: import('ava').ExecutionContext) {
  const repo = await makeDocsRepo();
  await chmod(repo.root, 0o755); // the agent may run as an unprivileged user: it clones the bare repository
  const server = await startGitHttpServer(repo.root);
  const agent = join(repo.root, 'agent.sh');
  await writeFile(agent, '#!/bin/bash\nprintf "%s\\n" "$ENCLAVE_PROMPT"\n');
  await chmod(agent, 0o755);
  const app = await startTestAppliance({
    overrides: {
      sites: [{ domain: DOMAIN, source: { git: `${server.url}/docs.git`, branch: 'main' } }],
      agent: { command: [agent], repository: repo.bare },
      automations: [
        { id: 'weekly-review', cron: '0 9 * * 1', prompt: 'Review the docs written this week.', site: DOMAIN },
        { id: 'by-hand', prompt: 'Unscheduled.', site: DOMAIN },
      ],
    },
  });
  t.teardown(async () => {
    await app.close();
    await server.close();
  });
  await waitUntil('first deploy', async () => app.features.sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);
  return { app, repo };
}

async function finishedPrompt(app: TestAppliance, jobId: string): Promise<string> {
  await waitUntil(
    `agent job ${jobId}`,
    async () => {
      const job = (await (await app.api(`/v2/agent/${app.projectId}/job/${jobId}`)).json()) as { status: string };
      return job.status !== 'active' ? job : null;
    },
    HANG_GUARD_MS,
  );
  return readFile(join(app.dataDir, 'agent', 'logs', `${jobId}.log`), 'utf8');
}

test.serial('a triggered automation is an agent job told the commits since the last completed run', async (t) => {
  const { app, repo } = await world(t);
  const first = await app.api(`/v1/workflow/${app.projectId}/weekly-review/trigger`, { method: 'POST' });
  t.is(first.status, 202);
  const started = (await first.json()) as { schemaId: string; instanceId: string; jobId: string };
  t.is(started.schemaId, 'weekly-review');
  t.regex(started.instanceId, /^wfi_/);
  t.regex(started.jobId, /^aj_/);
  const firstPrompt = await finishedPrompt(app, started.jobId);
  t.regex(firstPrompt, /Review the docs written this week\./);
  t.regex(firstPrompt, /Commits on main so far \(this is the first completed run\):\n- [0-9a-f]{12} Initial docs \(Docs Writer\)/);

  await repo.commit({ 'index.mdx': '# Changed\n' }, 'Rewrite the welcome page');
  await repo.commit({ 'guides/setup.mdx': '# Setup again\n' }, 'Tidy setup');
  const second = await app.features.automations.run('weekly-review'); // the cron's body
  const secondPrompt = await finishedPrompt(app, second.jobId);
  t.regex(secondPrompt, /Commits on main since the last completed run \([0-9a-f]{12}\):/);
  t.regex(secondPrompt, /Tidy setup[\s\S]*Rewrite the welcome page/);
  t.notRegex(secondPrompt, /Initial docs/);
});

test.serial('the trigger answers 400 for an automation without a schedule and 404 for an unknown one', async (t) => {
  const { app } = await world(t);
  const unscheduled = await app.api(`/v1/workflow/${app.projectId}/by-hand/trigger`, { method: 'POST' });
  t.is(unscheduled.status, 400);
  t.regex(((await unscheduled.json()) as { error: string }).error, /no schedule/);
  t.is((await app.api(`/v1/workflow/${app.projectId}/nope/trigger`, { method: 'POST' })).status, 404);
  t.is((await app.api('/v1/workflow/proj_0000000000000000/weekly-review/trigger', { method: 'POST' })).status, 403);
});
