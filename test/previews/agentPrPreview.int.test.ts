import { chmod } from 'node:fs/promises';
import test from 'ava';
import { makeTempDir } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { runJob, writeAgentScript } from '../agent/agentFixture.js';
import { git } from '../git/gitSourceFixture.js';
import { HANG_GUARD_MS, pathOf, previewWorld, waitForStatus } from './previewFixture.js';

test("an agent job's pushed branch gets a preview: its URL is on the job, in the PR link and in the commit a PR takes its description from", async (t) => {
  const scripts = await makeTempDir('enclave-agent-script-');
  // The agent may run as a user of its own: it must be able to run the script.
  await chmod(scripts, 0o755);
  const agent = await writeAgentScript(scripts, 'edit.sh', "printf '\\nReworded by the agent.\\n' >> index.mdx");
  const { app, repo, site } = await previewWorld(t, {
    agent: (gitUrl) => ({
      command: [agent],
      repository: `${gitUrl}/docs.git`,
      prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}?body={preview}',
    }),
  });
  const job = await runJob(app, { prompt: 'Reword the welcome page' }, HANG_GUARD_MS);
  t.is(job.status, 'completed', JSON.stringify(job));
  const branch = `enclave/agent/${job.id}`;
  t.regex(job.previewUrl, /^http:\/\/docs\.preview\.test:\d+\/_preview\/enclave-agent-aj-[0-9a-f]+-[0-9a-f]{6}\/$/);
  t.is(job.prLink, `https://git.corp/docs/compare/main...${branch}?body=${encodeURIComponent(job.previewUrl).replace(/%2F/g, '/')}`);
  const message = await git(repo.bare, 'log', '-1', '--format=%B', branch);
  t.true(message.includes(`Preview: ${job.previewUrl}`), message);

  const preview = await waitUntil(
    'the preview of the agent branch to be asked for',
    async () => {
      const { previews } = (await (await app.api(`/v1/project/previews/${app.projectId}`)).json()) as {
        previews: { agentJobId: string | null; statusId: string; previewUrl: string; branch: string }[];
      };
      return previews.find((p) => p.agentJobId === job.id);
    },
    HANG_GUARD_MS,
  );
  t.is(preview.branch, branch);
  t.is(preview.previewUrl, job.previewUrl);
  t.is((await waitForStatus(app.api, preview.statusId)).status, 'success');
  const page = await (await site(`${app.url}${pathOf(job.previewUrl)}`)).text();
  t.true(page.includes('Reworded by the agent.'));
  t.false((await (await site(`${app.url}/`)).text()).includes('Reworded by the agent.'), 'the live site is untouched');
});
