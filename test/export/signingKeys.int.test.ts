import test from 'ava';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keyringPath } from '../../src/platform/SigningKeyring.js';
import { runCli } from '../../src/cli/enclave.js';
import { spawnAppliance } from '../helpers/spawnAppliance.js';
import { captureCliIo } from '../helpers/captureCliIo.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { exportToBundle, makeTinySite } from './exportTestHelpers.js';

const FORBIDDEN_SIG = { error: 'invalid signature' };

/** The status of a signed link against `app` (links name the host they were minted on). */
async function linkStatus(app: TestAppliance, link: string): Promise<number> {
  return (await fetch(link.replace(/^http:\/\/[^/]+/, app.url), { method: 'HEAD' })).status;
}

// biome-ignore lint/suspicious/noExplicitAny: a response body read as loose JSON; each test checks the fields it needs
async function json(res: Response): Promise<any> {
  return res.json();
}

test('API: rotate, the old link still works, retire it, the old link is 403, the new one works; the active key cannot be retired', async (t) => {
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const overrides = { sites: [{ domain: 'tiny.test', source: await makeTinySite() }] };
  let app = await startTestAppliance({ dataDir, overrides });
  const { job, link: before } = await exportToBundle(app, 'tiny.test');
  const firstKid = new URL(before.bundleUrl).searchParams.get('kid')!;

  const listed = await json(await app.api('/v1/signing-keys'));
  t.is(listed.keys.length, 1);
  t.like(listed.keys[0], { kid: firstKid, active: true });
  t.deepEqual(Object.keys(listed.keys[0]).sort(), ['active', 'createdAt', 'kid'], 'never a secret');

  const onlyKey = await app.api(`/v1/signing-keys/${firstKid}`, { method: 'DELETE' });
  t.is(onlyKey.status, 409);
  t.deepEqual(await onlyKey.json(), { error: `${firstKid} is the active signing key; rotate first, then retire it` });
  const unknown = await app.api('/v1/signing-keys/k00000000', { method: 'DELETE' });
  t.is(unknown.status, 404);
  t.deepEqual(await unknown.json(), { error: 'No such signing key' });
  t.is((await app.api('/v1/signing-keys/rotate', { method: 'POST', key: null })).status, 401);

  const rotated = await app.api('/v1/signing-keys/rotate', { method: 'POST' });
  t.is(rotated.status, 201);
  const fresh = await rotated.json();
  t.regex(fresh.kid, /^k[0-9a-f]{8}$/);
  t.not(fresh.kid, firstKid);
  t.true(fresh.active);
  t.is(await linkStatus(app, before.bundleUrl), 200, 'a link signed before the rotation keeps working');
  const after = await json(await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' }));
  t.is(new URL(after.bundleUrl).searchParams.get('kid'), fresh.kid, 'new links use the new key');
  t.is(await linkStatus(app, after.bundleUrl), 200);

  const firstSecret = JSON.parse(await readFile(keyringPath(dataDir), 'utf8')).keys.find((k: { kid: string }) => k.kid === firstKid).secret;
  const retired = await app.api(`/v1/signing-keys/${firstKid}`, { method: 'DELETE' });
  t.is(retired.status, 200);
  t.deepEqual(
    (await retired.json()).keys.map((k: { kid: string }) => k.kid),
    [fresh.kid],
  );
  const refused = await fetch(before.bundleUrl.replace(/^http:\/\/[^/]+/, app.url));
  t.is(refused.status, 403);
  t.deepEqual(await refused.json(), { error: 'link retired' }, 'a retired link says so, not "invalid signature"');
  const forged = new URL(before.bundleUrl.replace(/^http:\/\/[^/]+/, app.url));
  forged.searchParams.set('kid', 'k00000000');
  t.deepEqual(await (await fetch(forged)).json(), FORBIDDEN_SIG, 'a key id that never existed is still a bad signature');
  t.is(await linkStatus(app, after.bundleUrl), 200, "the new key's links still work");
  t.false((await readFile(keyringPath(dataDir), 'utf8')).includes(firstSecret), 'the retired secret is gone from disk');

  // Survives a restart: the retirement was written, not just held in memory.
  await app.stop();
  app = await startTestAppliance({ dataDir, overrides });
  t.teardown(() => app.stop());
  t.is(await linkStatus(app, before.bundleUrl), 403);
  t.is(await linkStatus(app, after.bundleUrl), 200);
  const doc = await json(await app.api('/openapi.json'));
  t.truthy(doc.paths['/v1/signing-keys']?.get);
  t.truthy(doc.paths['/v1/signing-keys/rotate']?.post);
  t.truthy(doc.paths['/v1/signing-keys/{kid}']?.delete);
});

test('API: rotation stops at 32 keys until old ones are retired', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  for (let i = 1; i < 32; i++) t.is((await app.api('/v1/signing-keys/rotate', { method: 'POST' })).status, 201);
  const full = await app.api('/v1/signing-keys/rotate', { method: 'POST' });
  t.is(full.status, 409);
  t.deepEqual(await full.json(), { error: '32 signing keys already verify links; retire old ones first' });
  const [oldest] = (await json(await app.api('/v1/signing-keys'))).keys;
  t.is((await app.api(`/v1/signing-keys/${oldest.kid}`, { method: 'DELETE' })).status, 200);
  t.is((await app.api('/v1/signing-keys/rotate', { method: 'POST' })).status, 201);
});

async function cli(env: Record<string, string>, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const run = captureCliIo(env);
  const code = await runCli(argv, run.io);
  return { code, out: run.out(), err: run.err() };
}

test('CLI: with the server stopped it edits the keyring file; with a server running it goes through the API', async (t) => {
  const dir = await makeTempDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'data');
  const configFile = join(dir, 'enclave.json');
  await writeFile(configFile, JSON.stringify({ dataDir }));
  const env = { ENCLAVE_CONFIG: configFile };
  const init = await cli(env, 'init');
  t.is(init.code, 0, init.err);
  const adminKey = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(init.out)![1];

  // Offline: the file itself.
  const listed = await cli(env, 'keys', 'list-signing', '--json');
  t.is(listed.code, 0, listed.err);
  const [first] = JSON.parse(listed.out) as { kid: string; active: boolean }[];
  t.true(first.active);
  const refused = await cli(env, 'keys', 'retire-signing', first.kid, '--yes');
  t.is(refused.code, 1);
  t.is(refused.err, `enclave: ${first.kid} is the active signing key; rotate first, then retire it\n`);
  const rotated = await cli(env, 'keys', 'rotate-signing');
  t.is(rotated.code, 0, rotated.err);
  const second = rotated.out.trim();
  t.regex(second, /^k[0-9a-f]{8}$/);
  t.regex(rotated.err, new RegExp(`Links signed by ${first.kid} keep working`));
  const table = await cli(env, 'keys', 'list-signing');
  t.regex(table.out, new RegExp(`^KID +CREATED +ACTIVE\\n${first.kid} +\\S+\\n${second} +\\S+ +yes\\n$`));
  t.is((await cli(env, 'keys', 'retire-signing', first.kid)).code, 1, 'no terminal and no --yes: refused');
  t.is((await cli(env, 'keys', 'retire-signing', 'k12345678', '--yes')).err, 'enclave: No such signing key\n');

  // Online: a server owns the data directory, so the CLI must not edit the file under it.
  const server = await spawnAppliance({ ENCLAVE_CONFIG: configFile, ENCLAVE_DATA_DIR: dataDir });
  t.teardown(() => server.child.kill('SIGKILL'));
  t.is((await cli(env, 'keys', 'list')).code, 0, 'admin keys are listed live through the running server');
  const apiEnv = { ...env, ENCLAVE_URL: server.url, ENCLAVE_ADMIN_KEY: adminKey };
  const third = await cli(apiEnv, 'keys', 'rotate-signing');
  t.is(third.code, 0, third.err);
  const onServer = (await (await fetch(`${server.url}/v1/signing-keys`, { headers: { Authorization: `Bearer ${adminKey}` } })).json()) as {
    keys: { kid: string; active: boolean }[];
  };
  t.deepEqual(
    onServer.keys.map((k) => [k.kid, k.active]),
    [
      [first.kid, false],
      [second, false],
      [third.out.trim(), true],
    ],
    'the running server made and uses the new key',
  );
  const retire = await cli(apiEnv, 'keys', 'retire-signing', second, '--yes');
  t.is(retire.code, 0, retire.err);
  const activeRefused = await cli(apiEnv, 'keys', 'retire-signing', third.out.trim(), '--yes');
  t.is(activeRefused.code, 3, 'the API refused (409)');
  t.regex(activeRefused.err, /409: .* is the active signing key/);
  const online = await cli(apiEnv, 'keys', 'list-signing', '--json');
  t.deepEqual(
    (JSON.parse(online.out) as { kid: string }[]).map((k) => k.kid),
    [first.kid, third.out.trim()],
  );
});
