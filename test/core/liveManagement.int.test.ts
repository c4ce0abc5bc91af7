import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { runEnclave } from '../helpers/runEnclave.js';
import { spawnAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';

/** A minimal docs folder (docs.json + one page) owned by the test. */
async function docsFolder(t: { teardown(fn: () => Promise<void>): void }, name = 'Docs'): Promise<string> {
  const dir = await makeTempDir('enclave-live-docs-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'docs.json'), JSON.stringify({ name, navigation: { groups: [{ group: 'G', pages: ['index'] }] } }));
  await writeFile(join(dir, 'index.mdx'), '# Home\n');
  return dir;
}

test('/v1/keys: create shows the secret once, list shows last four and last use, revoke makes the key answer 401', async (t) => {
  const app = await startTestAppliance();
  t.teardown(() => app.close());
  const created = await app.api('/v1/keys', { method: 'POST', json: { name: 'ci', scope: 'read' } });
  t.is(created.status, 201);
  const body = await created.json();
  t.regex(body.key, /^enc_[0-9A-Za-z]{46}$/);
  t.like(body, { name: 'ci', scope: 'read', last4: body.key.slice(-4), lastUsedAt: null, revokedAt: null });
  t.is((await app.api('/v1/keys', { key: body.key })).status, 200, 'the new key works');
  const list = await (await app.api('/v1/keys')).json();
  const ci = list.keys.find((k: { id: string }) => k.id === body.id);
  t.truthy(ci.lastUsedAt, 'last use is shown');
  t.is(ci.last4, body.key.slice(-4));
  t.false(JSON.stringify(list).includes(body.key), 'the secret is never listed');
  t.false(JSON.stringify(list).includes('hash'));
  t.false(
    list.keys.some((k: { id: string }) => k.id === 'key_local_cli'),
    'the local CLI key is not a stored key',
  );
  t.is((await app.api('/v1/keys', { method: 'POST', key: body.key, json: { name: 'x' } })).status, 403, 'a read key cannot create keys');
  t.is((await app.api('/v1/keys', { method: 'POST', json: { name: 'x', scopes: 'write' } })).status, 400, 'unknown fields are refused');
  const revoked = await app.api(`/v1/keys/${body.id}`, { method: 'DELETE' });
  t.is(revoked.status, 200);
  t.truthy((await revoked.json()).revokedAt);
  t.is((await app.api('/v1/keys', { key: body.key })).status, 401);
  t.is((await app.api('/v1/keys/key_0000000000000000', { method: 'DELETE' })).status, 404);
  const doc = await (await app.api('/openapi.json', { key: null })).json();
  t.truthy(doc.paths['/v1/keys'].post);
  t.truthy(doc.paths['/v1/keys/{keyId}'].delete);
  t.truthy(doc.paths['/v1/sites'].get);
  t.truthy(doc.paths['/v1/sites/{domain}'].patch);
});

test('/v1/sites: add, list, update, remove while running; config sites are read-only; bad sources are 400', async (t) => {
  const declared = await docsFolder(t, 'Declared');
  const app = await startTestAppliance({ overrides: { sites: [{ domain: 'declared.test', source: declared }] } });
  t.teardown(() => app.close());
  const docs = await docsFolder(t);
  const added = await app.api('/v1/sites', { method: 'POST', json: { domain: 'New.Test', source: docs } });
  t.is(added.status, 201, await added.clone().text());
  t.like(await added.json(), { domain: 'new.test', source: docs, ref: null, origin: 'store' });
  t.is((await app.api('/v1/sites', { method: 'POST', json: { domain: 'new.test', source: docs } })).status, 409);
  const list = await (await app.api('/v1/sites')).json();
  t.deepEqual(list.sites.map((s: { domain: string }) => s.domain).sort(), ['declared.test', 'new.test', 'sample.enclave.internal']);
  // The new site is exportable at once, without a restart.
  t.is((await app.api('/v1/static-export/jobs', { method: 'POST', json: { domain: 'new.test' } })).status, 202);
  const empty = await makeTempDir();
  t.teardown(() => rm(empty, { recursive: true, force: true }));
  const bad = await app.api('/v1/sites/new.test', { method: 'PATCH', json: { source: empty } });
  t.is(bad.status, 400);
  t.regex((await bad.json()).details[0].message, /no docs\.json or mint\.json/);
  t.is(
    (await app.api('/v1/sites', { method: 'POST', json: { domain: 'rel.test', source: 'docs' } })).status,
    400,
    'relative paths are refused',
  );
  t.is((await app.api('/v1/sites/declared.test', { method: 'DELETE' })).status, 409, 'config sites change in the config file');
  t.is((await app.api('/v1/sites/new.test', { method: 'DELETE' })).status, 204);
  t.is((await app.api('/v1/sites/new.test', { method: 'DELETE' })).status, 404);
});

test('keys and sites verbs manage a running server through its API, with no key in the environment (recovery)', async (t) => {
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const server = await spawnAppliance({ ENCLAVE_DATA_DIR: dataDir });
  t.teardown(() => void server.child.kill('SIGKILL'));
  const env = { ENCLAVE_DATA_DIR: dataDir };
  const created = await runEnclave(['keys', 'create', '--name', 'recovered'], env);
  t.is(created.code, 0, created.stderr);
  t.regex(created.stderr, /on the running server/);
  const key = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(created.stdout)![1];
  t.is(
    (await fetch(`${server.url}/v1/keys`, { headers: { Authorization: `Bearer ${key}` } })).status,
    200,
    'the new key works without a restart',
  );
  const listed = await runEnclave(['keys', 'list', '--json'], env);
  t.is(listed.code, 0, listed.stderr);
  t.true(JSON.parse(listed.stdout).some((k: { name: string }) => k.name === 'recovered'));
  const docs = await docsFolder(t);
  const added = await runEnclave(['sites', 'add', '--domain', 'live.test', '--source', docs], env);
  t.is(added.code, 0, added.stderr);
  const sites = await runEnclave(['sites', 'list', '--json'], env);
  t.true(JSON.parse(sites.stdout).some((s: { domain: string }) => s.domain === 'live.test'));
  const doctor = await runEnclave(['doctor'], env);
  t.regex(doctor.stdout, new RegExp(`ok {4}server: running \\(pid ${server.child.pid}, ${server.url}\\)`), doctor.stdout);
  t.regex(doctor.stdout, /ok {4}site live\.test: /, 'stored sites are checked too');
  const refused = await runEnclave(['sites', 'remove', 'live.test'], env);
  t.is(refused.code, 1, 'destructive verbs want --yes without a terminal');
  t.is((await runEnclave(['sites', 'remove', 'live.test', '--yes'], env)).code, 0);
  server.child.kill('SIGTERM');
  t.is(await server.exited, 0);
  await t.throwsAsync(stat(join(dataDir, 'secrets', 'cli-key')), undefined, 'the CLI key leaves with the server');
});

test('ENCLAVE_SITES in the environment is applied, and an ENCLAVE_ variable that names no setting is refused', async (t) => {
  const docs = await docsFolder(t);
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const env = { ENCLAVE_DATA_DIR: dataDir, ENCLAVE_SITES: JSON.stringify([{ domain: 'env.test', source: docs }]) };
  await mkdir(dataDir, { recursive: true });
  const listed = await runEnclave(['sites', 'list', '--json'], env);
  t.is(listed.code, 0, listed.stderr);
  t.like(
    JSON.parse(listed.stdout).find((s: { domain: string }) => s.domain === 'env.test'),
    { source: docs, origin: 'config' },
  );
  const typo = await runEnclave(['sites', 'list'], { ENCLAVE_DATA_DIR: dataDir, ENCLAVE_SITEZ: '[]' });
  t.is(typo.code, 78);
  t.regex(typo.stderr, /ENCLAVE_SITEZ: not a setting/);
});
