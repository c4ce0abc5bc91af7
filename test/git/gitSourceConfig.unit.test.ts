import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { siteConfigSchema } from '../../src/config/sections/sites.js';
import { gitAccess } from '../../src/features/sources/gitAccess.js';

const site = (source: unknown, extra: Record<string, unknown> = {}) =>
  siteConfigSchema.safeParse({ domain: 'docs.test', source, ...extra });

test('a git source takes https and ssh URLs, a branch and a docs folder', (t) => {
  t.true(site({ git: 'https://git.corp/docs/site.git', branch: 'main', path: 'docs' }).success);
  t.true(site({ git: 'ssh://git@git.corp/docs/site.git', branch: 'release/1.2', knownHostsFile: '/k' }).success);
  t.true(site({ git: 'git@git.corp:docs/site.git', branch: 'main' }).success);
});

test('a git source refuses a password in the URL, odd branches and folders, and a ref beside it', (t) => {
  t.false(site({ git: 'https://bot:token@git.corp/docs.git', branch: 'main' }).success, 'credentials in the URL');
  t.false(site({ git: 'file:///srv/docs.git', branch: 'main' }).success, 'file URL');
  t.false(site({ git: 'https://git.corp/docs.git', branch: '-x' }).success, 'branch read as an option');
  t.false(site({ git: 'https://git.corp/docs.git', branch: 'a..b' }).success);
  t.false(site({ git: 'https://git.corp/docs.git', branch: 'main', path: '../etc' }).success);
  t.false(site({ git: 'https://git.corp/docs.git', branch: 'main', path: '/abs' }).success);
  t.false(site({ git: 'https://git.corp/docs.git', branch: 'main' }, { ref: 'v1' }).success);
});

test('https credentials become an Authorization header pinned to that repository only; the URL cannot be rewritten', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'enclave-gitaccess-'));
  await writeFile(join(dir, 'token'), 's3cret\n');
  const url = 'https://git.corp/docs/site.git';
  const access = await gitAccess({ git: url, branch: 'main', username: 'bot', tokenFile: join(dir, 'token') });
  const pins = new Map(access.pins);
  t.is(pins.get(`http.${url}.extraHeader`), `Authorization: Basic ${Buffer.from('bot:s3cret').toString('base64')}`);
  t.is(pins.get(`url.${url}.insteadOf`), url);
  t.is(pins.get('protocol.file.allow'), 'never');
  t.is(access.sshCommand, undefined);
});

test('ssh needs a known_hosts file and checks host keys strictly with the given key', async (t) => {
  await t.throwsAsync(gitAccess({ git: 'git@git.corp:docs.git', branch: 'main' }), { message: /knownHostsFile/ });
  const access = await gitAccess({ git: 'git@git.corp:docs.git', branch: 'main', knownHostsFile: "/etc/it's/known", sshKeyFile: '/k/id' });
  t.is(
    access.sshCommand,
    "ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes -o 'UserKnownHostsFile=/etc/it'\\''s/known' -o GlobalKnownHostsFile=/dev/null -o UpdateHostKeys=no -o GSSAPIAuthentication=no -o IdentitiesOnly=yes -o IdentityFile=/k/id",
  );
  const keyless = await gitAccess({ git: 'ssh://git@git.corp/docs.git', branch: 'main', knownHostsFile: '/k/known' });
  t.regex(keyless.sshCommand ?? '', / -o IdentityFile=none$/, "no key file: ssh offers none of the server user's ~/.ssh keys");
});
