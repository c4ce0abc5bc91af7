import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestConfig, makeTempDir } from '../helpers/testAppliance.js';
import { buildPrLink, repositoryPath } from '../../src/features/agent/buildPrLink.js';
import { redactCredentials } from '../../src/platform/git/redactCredentials.js';
import { call, git, makeDocsRemote, runJob, startAgentAppliance, startGitHttpServer, writeAgentScript } from './agentFixture.js';

const values = {
  repository: 'https://git.corp/docs/handbook.git',
  base: 'main',
  branch: 'enclave/agent/aj_00112233aabbccdd',
  id: 'aj_00112233aabbccdd',
};

test('PR link templates for Gitea, GitLab and GitHub Enterprise', (t) => {
  t.is(
    buildPrLink('https://git.corp/{repository}/compare/{base}...{branch}', values),
    'https://git.corp/docs/handbook/compare/main...enclave/agent/aj_00112233aabbccdd',
  );
  t.is(
    buildPrLink(
      'https://gitlab.corp/{repository}/-/merge_requests/new?merge_request[source_branch]={branch}&merge_request[target_branch]={base}',
      values,
    ),
    'https://gitlab.corp/docs/handbook/-/merge_requests/new?merge_request%5Bsource_branch%5D=enclave/agent/aj_00112233aabbccdd&merge_request%5Btarget_branch%5D=main',
  );
  t.is(
    buildPrLink('https://github.corp/{repository}/compare/{base}...{branch}?expand=1', values),
    'https://github.corp/docs/handbook/compare/main...enclave/agent/aj_00112233aabbccdd?expand=1',
  );
  t.is(buildPrLink('{id}', values), values.id);
});

test('template values are percent-encoded (slashes kept) and never carry credentials', (t) => {
  t.is(
    buildPrLink('https://h/{repository}?b={base}', { ...values, base: 'release 2.0&x=#1' }),
    'https://h/docs/handbook?b=release%202.0%26x%3D%231',
  );
  t.is(repositoryPath('https://bot:s3cret@git.corp:3000/org/docs.git'), 'org/docs');
  t.is(repositoryPath('ssh://git@git.corp/org/docs.git/'), 'org/docs');
  t.is(repositoryPath('git@git.corp:org/docs.git'), 'org/docs');
  t.is(repositoryPath('/srv/git/docs.git'), 'srv/git/docs');
  t.is(
    redactCredentials('fatal: unable to access https://bot:s3cret@git.corp/org/docs.git/'),
    'fatal: unable to access https://git.corp/org/docs.git/',
  );
});

test('config rejects unknown template placeholders, bad cron expressions and relative agent paths', async (t) => {
  const dir = await makeTempDir();
  t.throws(() => makeTestConfig(dir, { agent: { prLinkTemplate: 'https://git.corp/{repo}/compare/{base}...{branch}' } }), {
    message: /unknown placeholder/,
  });
  t.throws(() => makeTestConfig(dir, { agent: { archiveCron: 'every night' } }), { message: /cron/ });
  t.throws(() => makeTestConfig(dir, { agent: { command: ['./agent.sh'] } }), { message: /absolute path/ });
  t.notThrows(() => makeTestConfig(dir, { agent: { command: ['node', '/opt/agent.mjs'] } }));
  t.notThrows(() => makeTestConfig(dir, { agent: { prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}' } }));
});

test('a token in the repository URL shows nowhere: not in the job, its error, or its log', async (t) => {
  const { dir } = await makeDocsRemote(t);
  const app = await startAgentAppliance(t, { command: [await writeAgentScript(dir, 'noop.sh', 'true')] });
  // Port 9 on the loopback: nothing listens, so the clone fails at once without leaving the host.
  const job = await runJob(app, { prompt: 'x', source: { repository: 'http://bot:s3cret-token@127.0.0.1:9/org/docs.git' } });
  t.is(job.status, 'failed');
  t.is(job.source.repository, 'http://127.0.0.1:9/org/docs.git');
  t.false(JSON.stringify(job).includes('s3cret'));
  const log = await readFile(join(app.dataDir, 'agent', 'logs', `${job.id}.log`), 'utf8');
  t.true(log.includes('git clone'), log);
  t.false(log.includes('s3cret'), log);
  const listed = await call(app, `/v2/agent/${app.projectId}/jobs`);
  t.false(JSON.stringify(listed.body).includes('s3cret'));
});

test('over HTTP with a deploy token: clone and push work, and the agent cannot find the token in its clone', async (t) => {
  const { dir } = await makeDocsRemote(t);
  const base = await startGitHttpServer(t, dir, 'enclave-bot', 'tok-9f8e7d');
  const seen = join(dir, 'seen.txt');
  const agent = await writeAgentScript(dir, 'look.sh', `grep -r -l "tok-9f8e7d" . > ${seen} || true\necho change >> index.mdx`);
  const app = await startAgentAppliance(t, {
    command: [agent],
    repository: `${base.replace('http://', 'http://enclave-bot:tok-9f8e7d@')}/remote.git`,
    prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}',
  });
  const job = await runJob(app, { prompt: 'Edit over http' });
  t.is(job.status, 'completed', JSON.stringify(job));
  t.is(job.source.repository, `${base}/remote.git`);
  t.is(job.prLink, `https://git.corp/remote/compare/main...enclave/agent/${job.id}`);
  t.is(await git(join(dir, 'remote.git'), 'diff', '--name-only', `main..enclave/agent/${job.id}`), 'index.mdx');
  t.is(await readFile(seen, 'utf8'), '', 'no file of the clone (.git included) holds the token');
  const log = await readFile(join(app.dataDir, 'agent', 'logs', `${job.id}.log`), 'utf8');
  t.false(log.includes('tok-9f8e7d'));
});
