import test from 'ava';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keyringPath } from '../../src/platform/SigningKeyring.js';
import {
  call,
  git,
  makeDocsRemote,
  processGroupMembers,
  runJob,
  startAgentAppliance,
  waitForJob,
  writeAgentScript,
  PRINT_HOST_PGID,
} from './agentFixture.js';

// Serial: fourteen appliances, remotes and agents at once made the first result wait 45 s
// beside four CPU hogs, and under the whole suite past ava's 3-minute timeout, which counts
// from the last result; one at a time, results come steadily and each wall-clock bound (the
// hanging agent's) measures its own test, not thirteen others.
test.serial('an agent that edits a page: branch pushed, prLink from the template, diff is exactly the change', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'edit.sh', 'printf "\\nEdited by the agent.\\n" >> index.mdx\necho "edited index.mdx"');
  const app = await startAgentAppliance(t, {
    command: [agent],
    repository: remote,
    prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}?job={id}',
  });
  const job = await runJob(app, { prompt: 'Add a closing line to the welcome page\n\nKeep it short.' });
  t.is(job.status, 'completed', JSON.stringify(job));
  const branch = `enclave/agent/${job.id}`;
  t.regex(job.id, /^aj_[0-9a-f]{16}$/);
  t.deepEqual(job.source, { repository: remote, ref: branch });
  t.is(job.prLink, `https://git.corp${remote.replace(/\.git$/, '')}/compare/main...${branch}?job=${job.id}`);
  t.is(job.archivedAt, null);
  t.false('error' in job);

  t.is(await git(remote, 'diff', '--name-only', `main..${branch}`), 'index.mdx');
  const diff = await git(remote, 'diff', `main..${branch}`);
  t.true(diff.includes('+Edited by the agent.'));
  t.is(diff.split('\n').filter((l) => /^[+-][^+-]/.test(l)).length, 1, diff);
  t.is(
    await git(remote, 'log', '-1', '--format=%an <%ae>|%s', branch),
    'Enclave Agent <agent@enclave.local>|Add a closing line to the welcome page',
  );
  const log = await readFile(join(app.dataDir, 'agent', 'logs', `${job.id}.log`), 'utf8');
  t.true(log.includes('edited index.mdx'));
});

test.serial('an agent that changes nothing: completed, no branch, prLink null', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'noop.sh', 'echo "nothing to change"');
  const app = await startAgentAppliance(t, {
    command: [agent],
    repository: remote,
    prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}',
  });
  const job = await runJob(app, { prompt: 'Check the docs' });
  t.is(job.status, 'completed');
  t.is(job.prLink, null);
  t.is(job.source.ref, null);
  t.is(await git(remote, 'branch', '--list', 'enclave/*'), '');
});

test.serial('an agent that exits 3: failed, the error names the exit code and no internal path', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'fail.sh', 'echo "half-done" >> index.mdx\necho "model unavailable" >&2\nexit 3');
  const app = await startAgentAppliance(t, {
    command: [agent],
    repository: remote,
    prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}',
  });
  const job = await runJob(app, { prompt: 'Rewrite everything' });
  t.is(job.status, 'failed');
  t.is(job.error, 'the agent exited with code 3');
  t.is(job.prLink, null);
  t.is(job.source.ref, null);
  t.is(await git(remote, 'branch', '--list', 'enclave/*'), '', 'half-done work of a failed run is not pushed');
  const log = await readFile(join(app.dataDir, 'agent', 'logs', `${job.id}.log`), 'utf8');
  t.true(log.includes('model unavailable'), 'stderr is in the job log');
});

test.serial('a command that does not exist: failed, without naming the path', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const app = await startAgentAppliance(t, { command: [join(dir, 'no-such-agent')], repository: remote });
  const job = await runJob(app, { prompt: 'Anything' });
  t.is(job.status, 'failed');
  t.is(job.error, 'the agent command could not be started (ENOENT)');
});

test.serial('a hanging agent is stopped at the timeout with its whole process group, even if it ignores SIGTERM', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const pidFile = join(dir, 'agent.pid');
  const agent = await writeAgentScript(dir, 'hang.sh', `trap '' TERM\n${PRINT_HOST_PGID} > ${pidFile}\nsleep 300 &\nsleep 300`);
  const app = await startAgentAppliance(t, { command: [agent], repository: remote, timeoutSeconds: 2 });
  const started = Date.now();
  const job = await runJob(app, { prompt: 'Think forever' });
  const took = Date.now() - started;
  t.is(job.status, 'failed');
  t.is(job.error, 'the agent timed out after 2 s and was stopped');
  // At least the timeout; the agent would run 300 s if it were not stopped (the upper bound
  // only tells those apart, so a loaded machine can't fail it).
  t.true(took >= 2000 && took < 120_000, `took ${took} ms`);
  const pgid = Number(await readFile(pidFile, 'utf8'));
  t.deepEqual(processGroupMembers(pgid), [], 'no process of the agent group survives');
  t.deepEqual(await readdir(join(app.dataDir, 'agent', 'work')), [], 'scratch clone deleted');
});

test.serial('an agent that prints megabytes: the log stops at maxLogBytes and the job still finishes', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(
    dir,
    'chatty.sh',
    "head -c 6000000 /dev/zero | tr '\\0' 'x'\nhead -c 3000000 /dev/zero | tr '\\0' 'y' >&2\necho done >> index.mdx",
  );
  const app = await startAgentAppliance(t, { command: [agent], repository: remote, maxLogBytes: 65536 });
  const job = await runJob(app, { prompt: 'Be verbose' });
  t.is(job.status, 'completed');
  t.is(job.source.ref, `enclave/agent/${job.id}`);
  const logPath = join(app.dataDir, 'agent', 'logs', `${job.id}.log`);
  const size = (await stat(logPath)).size;
  t.true(size <= 65536 && size > 60000, `log is ${size} bytes`);
  t.true((await readFile(logPath, 'utf8')).includes('log limit reached'));
});

test.serial('the agent sees a clean environment: no admin key, no signing secret, no server variables', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const seen = join(dir, 'seen');
  const agent = await writeAgentScript(
    dir,
    'snoop.sh',
    [`mkdir -p ${seen}`, `env > ${seen}/env`, `cat > ${seen}/stdin`, `pwd > ${seen}/pwd`, `ls -a "$HOME" > ${seen}/home`].join('\n'),
  );
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  // Whatever the server process holds in its environment must not reach the agent.
  process.env.ENCLAVE_ADMIN_KEY = app.key;
  process.env.SERVER_ONLY_CANARY = 'canary-6f1d';
  t.teardown(() => {
    delete process.env.ENCLAVE_ADMIN_KEY;
    delete process.env.SERVER_ONLY_CANARY;
  });
  const prompt = 'Print your environment\nsecond line';
  const job = await runJob(app, { prompt, model: 'llama-3.1-8b' });
  t.is(job.status, 'completed');

  const envText = await readFile(join(seen, 'env'), 'utf8');
  const env = Object.fromEntries(
    envText
      .trim()
      .split('\n')
      .filter((l) => /^[A-Z_][A-Z0-9_]*=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const names = Object.keys(env).sort();
  const bashOwn = new Set(['PWD', 'SHLVL', '_', 'OLDPWD']);
  t.deepEqual(
    names.filter((n) => !bashOwn.has(n)),
    ['ENCLAVE_JOB_ID', 'ENCLAVE_MODEL', 'ENCLAVE_PROMPT', 'HOME', 'LANG', 'PATH'],
  );
  t.is(env.ENCLAVE_JOB_ID, job.id);
  t.is(env.ENCLAVE_MODEL, 'llama-3.1-8b');
  t.is(await readFile(join(seen, 'stdin'), 'utf8'), prompt);
  t.false(envText.includes(app.key), 'admin key absent');
  t.false(envText.includes('canary-6f1d'), 'server environment absent');
  const secret = await readFile(keyringPath(app.dataDir), 'utf8');
  for (const value of Object.values(env)) t.false(value.length > 8 && secret.includes(value), 'nothing of the keyring');
  t.false(envText.includes(join(app.dataDir, 'secrets')));
  t.not(env.HOME, process.env.HOME);
  t.is(await readFile(join(seen, 'home'), 'utf8'), '.\n..\n', 'scratch HOME is empty');
  const pwd = (await readFile(join(seen, 'pwd'), 'utf8')).trim();
  t.true(pwd.endsWith(`/${job.id}/repo`), pwd);
  t.false(pwd.startsWith(app.dataDir), 'the agent works on a copy outside the data directory');
});

test.serial('a push the remote refuses: failed with a git error, nothing pushed', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  await writeAgentScript(join(remote, 'hooks'), 'pre-receive', 'echo "protected: pushes are closed" >&2\nexit 1');
  const agent = await writeAgentScript(dir, 'edit.sh', 'echo change >> index.mdx');
  const app = await startAgentAppliance(t, {
    command: [agent],
    repository: remote,
    prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}',
  });
  const job = await runJob(app, { prompt: 'Edit' });
  t.is(job.status, 'failed');
  t.regex(job.error, /^could not push branch enclave\/agent\/aj_[0-9a-f]{16} to the repository/);
  t.false(job.error.includes(dir), 'no internal path');
  t.is(job.prLink, null);
  t.is(job.source.ref, null);
  const log = await readFile(join(app.dataDir, 'agent', 'logs', `${job.id}.log`), 'utf8');
  t.true(log.includes('protected: pushes are closed'), 'the remote said why, in the log');
});

test.serial('a remote that vanished before the push: failed', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'edit.sh', `echo change >> index.mdx\nmv ${remote} ${remote}.gone`);
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const job = await runJob(app, { prompt: 'Edit' });
  t.is(job.status, 'failed');
  t.regex(job.error, /^could not push branch/);
});

test.serial('a repository that cannot be cloned, and a ref that does not exist: failed with a reason', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'edit.sh', 'echo change >> index.mdx');
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const missing = await runJob(app, { prompt: 'Edit', source: { repository: join(dir, 'nothing-here.git') } });
  t.is(missing.status, 'failed');
  t.regex(missing.error, /^could not clone the repository/);
  const badRef = await runJob(app, { prompt: 'Edit', source: { ref: 'no-such-branch' } });
  t.is(badRef.status, 'failed');
  t.is(badRef.error, "ref 'no-such-branch' was not found in the repository");
});

test.serial('source.ref picks the starting branch, which becomes {base} of the PR link', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const work = join(dir, 'work');
  await git(dir, 'clone', '--quiet', remote, work);
  await git(work, 'checkout', '--quiet', '-b', 'release/2.0');
  await writeFile(join(work, 'release.mdx'), 'Release notes\n');
  await git(work, 'add', '--all');
  await git(work, 'commit', '--quiet', '-m', 'Release branch');
  await git(work, 'push', '--quiet', 'origin', 'release/2.0');
  const agent = await writeAgentScript(dir, 'edit.sh', 'test -f release.mdx\necho "more notes" >> release.mdx');
  const app = await startAgentAppliance(t, {
    command: [agent],
    repository: remote,
    prLinkTemplate:
      'https://gitlab.corp/{repository}/-/merge_requests/new?merge_request[source_branch]={branch}&merge_request[target_branch]={base}',
  });
  const job = await runJob(app, { prompt: 'Extend the release notes', source: { repository: remote, ref: 'release/2.0' } });
  t.is(job.status, 'completed', JSON.stringify(job));
  t.true(job.prLink.endsWith(`source_branch%5D=enclave/agent/${job.id}&merge_request%5Btarget_branch%5D=release/2.0`), job.prLink);
  t.is(await git(remote, 'diff', '--name-only', `release/2.0..enclave/agent/${job.id}`), 'release.mdx');
});

test.serial('a follow-up message runs again on the same branch; one sent while active runs after it', async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  // The agent appends the prompt's first line, so each run's change is visible and distinct.
  const agent = await writeAgentScript(dir, 'append.sh', 'line=$(head -n 1)\necho "$line" >> changes.md');
  const app = await startAgentAppliance(t, {
    command: [agent],
    repository: remote,
    prLinkTemplate: 'https://git.corp/{repository}/compare/{base}...{branch}',
  });
  const first = await runJob(app, { prompt: 'First change' });
  t.is(first.status, 'completed');
  const branch = `enclave/agent/${first.id}`;

  const sent = await call(app, `/v2/agent/${app.projectId}/job/${first.id}/message`, { method: 'POST', json: { prompt: 'Second change' } });
  t.is(sent.status, 200);
  t.is(sent.body.status, 'active');
  t.is(sent.body.id, first.id);
  t.is(sent.body.prLink, null, 'no pull request link while the agent works');
  // Issue 31: the hosted API accepts a message to an active job and processes it afterwards.
  const again = await call(app, `/v2/agent/${app.projectId}/job/${first.id}/message`, { method: 'POST', json: { prompt: 'Third change' } });
  t.is(again.status, 200, 'a message to an active job is accepted');
  t.is(again.body.status, 'active');

  const third = await waitForJob(app, first.id);
  t.is(third.status, 'completed');
  t.is(third.prLink, first.prLink);
  t.is(third.source.ref, branch);
  t.is(await git(remote, 'log', '--format=%s', `main..${branch}`), 'Third change\nSecond change\nFirst change');
  t.is(await git(remote, 'show', `${branch}:changes.md`), 'First change\nSecond change\nThird change');
});

test.serial("an agent cannot make git run its code or redirect the push through the clone's .git", async (t) => {
  const { dir, remote } = await makeDocsRemote(t);
  const decoy = join(dir, 'decoy.git');
  await git(dir, 'init', '--quiet', '--bare', decoy);
  const marker = join(dir, 'pwned');
  const agent = await writeAgentScript(
    dir,
    'sneaky.sh',
    [
      'echo change >> index.mdx',
      `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit`,
      `cp .git/hooks/pre-commit .git/hooks/pre-push; cp .git/hooks/pre-commit .git/hooks/post-commit; cp .git/hooks/pre-commit ../fsmonitor.sh`,
      'chmod +x .git/hooks/* ../fsmonitor.sh',
      `git config core.fsmonitor "$(cd .. && pwd)/fsmonitor.sh"`,
      `git config url.${decoy}.insteadOf ${remote}`,
    ].join('\n'),
  );
  const app = await startAgentAppliance(t, { command: [agent], repository: remote });
  const job = await runJob(app, { prompt: 'Edit' });
  t.is(job.status, 'completed', JSON.stringify(job));
  t.false(existsSync(marker), 'no hook or fsmonitor ran');
  t.is(await git(remote, 'branch', '--list', `enclave/agent/${job.id}`), `enclave/agent/${job.id}`, 'pushed to the real remote');
  t.is(await git(decoy, 'branch', '--list'), '', 'not to the decoy');
});

test.serial('a repository using the ext:: transport (command execution) is refused', async (t) => {
  const { dir } = await makeDocsRemote(t);
  const marker = join(dir, 'pwned');
  const app = await startAgentAppliance(t, { command: ['true'] });
  const job = await runJob(app, { prompt: 'x', source: { repository: `ext::sh -c touch% ${marker}` } });
  t.is(job.status, 'failed');
  t.regex(job.error, /^could not clone the repository/);
  t.false(existsSync(marker));
});
