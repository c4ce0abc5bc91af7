import test from 'ava';
import { runCli } from '../../src/cli/enclave.js';
import { openControlStore } from '../../src/features/control/ControlStore.js';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { captureCliIo } from '../helpers/captureCliIo.js';
import { makeTempDir } from '../helpers/testAppliance.js';

const io = captureCliIo;

test('init, keys create/list/revoke and sites add/list work on the store with the server stopped', async (t) => {
  const dir = await makeTempDir();
  const env = { ENCLAVE_DATA_DIR: dir };

  const init = io(env);
  t.is(await runCli(['init'], init.io), 0);
  t.regex(init.out(), /^ENCLAVE_ADMIN_KEY=enc_[0-9A-Za-z]{46}\nENCLAVE_PROJECT_ID=proj_[0-9a-f]{16}\n$/);
  const again = io(env);
  t.is(await runCli(['init'], again.io), 0);
  t.is(again.out(), '', 'a second init creates no second key');

  const created = io(env);
  t.is(await runCli(['keys', 'create', '--name', 'ci', '--scope', 'read', '--expires-in', '30d'], created.io), 0);
  const key = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(created.out())![1];

  const listed = io(env);
  t.is(await runCli(['keys', 'list', '--json'], listed.io), 0);
  const keys = JSON.parse(listed.out()) as { id: string; name: string; scope: string; last4: string; expiresAt: string }[];
  t.is(keys.length, 2);
  const ci = keys.find((k) => k.name === 'ci')!;
  t.is(ci.scope, 'read');
  t.is(ci.last4, key.slice(-4));
  t.truthy(ci.expiresAt);
  t.false(listed.out().includes(key), 'keys are never printed again');
  t.false(listed.out().includes('hash'), 'hashes are not printed');

  const refused = io(env);
  t.is(await runCli(['keys', 'revoke', ci.id], refused.io), 1, 'destructive verbs need --yes without a terminal');
  t.regex(refused.err(), /--yes/);
  const revoked = io(env);
  t.is(await runCli(['keys', 'revoke', ci.id, '--yes'], revoked.io), 0);
  const control = await openControlStore({ dataDir: dir, sites: [] });
  t.truthy(control.keys.find(ci.id)!.revokedAt);

  const badSite = io(env);
  t.is(await runCli(['sites', 'add', '--domain', 'https://docs.x/', '--source', '/nonexistent'], badSite.io), 2);
  t.regex(badSite.err(), /bare host name/);
  const missing = io(env);
  t.is(await runCli(['sites', 'add', '--domain', 'docs.x', '--source', '/nonexistent'], missing.io), 1);
  t.regex(missing.err(), /does not exist/);
  const notDocs = io(env);
  t.is(await runCli(['sites', 'add', '--domain', 'docs.x', '--source', dir], notDocs.io), 1, 'a folder without docs.json is refused');
  t.regex(notDocs.err(), /no docs\.json or mint\.json/);
  const docs = await makeTempDir();
  t.teardown(() => rm(docs, { recursive: true, force: true }));
  await writeFile(join(docs, 'docs.json'), '{"name":"Corp"}');
  const site = io(env);
  t.is(await runCli(['sites', 'add', '--domain', 'Docs.Corp.Internal', '--source', docs], site.io), 0, site.err());
  const sites = io(env);
  t.is(await runCli(['sites', 'list', '--json'], sites.io), 0);
  const domains = (JSON.parse(sites.out()) as { domain: string }[]).map((s) => s.domain);
  t.true(domains.includes('docs.corp.internal'));
  t.true(domains.includes('sample.enclave.internal'));

  const doctor = io(env);
  const code = await runCli(['doctor'], doctor.io);
  t.regex(doctor.out(), /ok {2}\s*config: valid/);
  t.regex(doctor.out(), /signing secret: present/);
  t.is(code, 0, doctor.out());
});

test('usage errors exit 2 and unknown verbs are named', async (t) => {
  const unknown = io({});
  t.is(await runCli(['frobnicate'], unknown.io), 2);
  t.regex(unknown.err(), /unknown verb 'frobnicate'/);
  const bad = io({});
  t.is(await runCli(['keys', 'create'], bad.io), 2);
  const none = io({});
  t.is(await runCli([], none.io), 2);
  t.regex(none.out(), /usage: enclave/);
});

test('doctor reports a damaged store file and a missing signing secret', async (t) => {
  const dir = await makeTempDir();
  const env = { ENCLAVE_DATA_DIR: dir };
  t.is(await runCli(['init'], io(env).io), 0);
  await writeFile(`${dir}/control.json`, '{broken');
  await rm(`${dir}/secrets/signing-keys.json`);
  const doctor = io(env);
  t.is(await runCli(['doctor'], doctor.io), 1);
  t.regex(doctor.out(), /FAIL {2}store control\.json: damaged/);
  t.regex(doctor.out(), /FAIL {2}signing secret: .*missing/);
});

test('--yes is accepted by every verb that removes or replaces something', async (t) => {
  const env = { ENCLAVE_URL: 'http://127.0.0.1:9', ENCLAVE_ADMIN_KEY: 'enc_x' };
  const rollback = io(env);
  t.is(await runCli(['deploy', '--rollback', '--yes'], rollback.io), 4, `parsed, then the server is unreachable: ${rollback.err()}`);
  const dir = await makeTempDir();
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const local = { ENCLAVE_DATA_DIR: dir };
  t.is(await runCli(['init'], io(local).io), 0);
  const revoke = io(local);
  t.is(await runCli(['keys', 'revoke', 'key_0000000000000000', '--yes'], revoke.io), 1);
  t.regex(revoke.err(), /No key key_0000000000000000/);
  const remove = io(local);
  t.is(await runCli(['sites', 'remove', 'sample.enclave.internal', '--yes'], remove.io), 0, remove.err());
});
