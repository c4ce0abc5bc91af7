import test from 'ava';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runDeploy } from '../../src/cli/deploy.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { closedPort } from './helpers/bundleServer.js';
import { startLoggedAppliance } from './helpers/loggedAppliance.js';
import { writeBundle } from './helpers/testBundles.js';

function cliIo(env: Record<string, string>) {
  const out = new PassThrough();
  const err = new PassThrough();
  let stdout = '';
  let stderr = '';
  out.on('data', (c) => (stdout += String(c)));
  err.on('data', (c) => (stderr += String(c)));
  return { io: { out, err, env }, stdout: () => stdout, stderr: () => stderr };
}

test('enclave deploy: a relative file path, --version pin, --status, --rollback [--to], and exit codes', async (t) => {
  const dir = await makeTempDir('enclave-cli-');
  await writeBundle(join(dir, 'v1.zip'), 'v1');
  await writeBundle(join(dir, 'v2.zip'), 'v2');
  const app = await startLoggedAppliance();
  t.teardown(() => app.close());
  const env = { ENCLAVE_URL: app.url, ENCLAVE_ADMIN_KEY: app.key };
  const cwd = process.cwd();
  process.chdir(dir);
  t.teardown(() => process.chdir(cwd));

  let run = cliIo(env);
  t.is(await runDeploy(['v1.zip'], run.io), 0, run.stderr());
  t.regex(run.stderr(), /Version v1 of docs\.test\.internal is live \(dp_[0-9a-f]{16}\)/);

  run = cliIo(env);
  t.is(await runDeploy(['v2.zip', '--version', 'v9'], run.io), 3);
  t.regex(run.stderr(), /422: Bundle refused: bundle version "v2" does not match the pinned version "v9"/);

  run = cliIo(env);
  t.is(await runDeploy(['v2.zip', '--version', 'v2'], run.io), 0);

  run = cliIo(env);
  t.is(await runDeploy(['--status'], run.io), 0);
  t.regex(run.stdout(), /\* live\s+v2/);
  t.regex(run.stdout(), /kept\s+v1/);
  t.notRegex(run.stdout(), /Last error/, 'the successful v2 deploy cleared the refusal');

  run = cliIo(env);
  t.is(await runDeploy(['--rollback'], run.io), 1, 'no terminal to ask on and no --yes: refused');
  t.regex(run.stderr(), /Refusing without --yes/);
  run = cliIo(env);
  t.is(await runDeploy(['--rollback', '--yes'], run.io), 0);
  t.regex(run.stderr(), /version v1 is live/);
  run = cliIo(env);
  t.is(await runDeploy(['--rollback', '--to', 'v2', '--yes'], run.io), 0);
  run = cliIo(env);
  t.is(await runDeploy(['--rollback', '--to', 'nope', '--yes'], run.io), 3);
  t.regex(run.stderr(), /404: No kept version "nope"/);

  run = cliIo(env);
  t.is(await runDeploy(['--status', '--json'], run.io), 0);
  t.is(JSON.parse(run.stdout()).active.version, 'v2');

  for (const bad of [
    [],
    ['a.zip', 'b.zip'],
    ['--rollback', 'a.zip'],
    ['--to', 'v1'],
    ['--status', '--rollback'],
    ['--bogus'],
    ['--status', '--label', 'x'],
    ['--rollback', '--allow-failed'],
    ['a.zip', '--yes'],
  ]) {
    run = cliIo(env);
    t.is(await runDeploy(bad, run.io), 2, bad.join(' '));
  }
  run = cliIo({ ENCLAVE_URL: `http://127.0.0.1:${await closedPort()}`, ENCLAVE_ADMIN_KEY: app.key });
  t.is(await runDeploy(['--status'], run.io), 4);
});
