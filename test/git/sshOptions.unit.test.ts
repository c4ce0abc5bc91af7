import test from 'ava';
import { loadConfig } from '../../src/config/loadConfig.js';
import { agentSharesServerUser } from '../../src/features/sources/ssh/createSshConnections.js';
import { sshClientOptions, sshCommandLine, sshConfigText, sshPath } from '../../src/features/sources/ssh/sshClientOptions.js';
import { sshTarget } from '../../src/features/sources/ssh/sshTarget.js';

// Issue 31: a shared ssh connection is used for whatever its master logged in to, so the
// master must be started for exactly the user, host and port git's ssh transport would use;
// a URL read any other way gets no shared connection at all.

test('the user, host and port git would log in to, from ssh:// and scp-like URLs', (t) => {
  t.deepEqual(sshTarget('ssh://git@git.corp:2222/docs/site.git'), { user: 'git', host: 'git.corp', port: 2222 });
  t.deepEqual(sshTarget('ssh://git.corp/docs.git'), { host: 'git.corp' });
  t.deepEqual(sshTarget('ssh://deploy@[fd00::1]:22/docs.git'), { user: 'deploy', host: 'fd00::1', port: 22 });
  t.deepEqual(sshTarget('git@git.corp:docs/site.git'), { user: 'git', host: 'git.corp' });
  t.deepEqual(sshTarget('git.corp:docs.git'), { host: 'git.corp' });
});

test('a URL that is anything less plain gets no shared connection (null)', (t) => {
  for (const url of [
    'ssh://git@git.corp:/docs.git', // empty port
    'ssh://git@git.corp:99999/docs.git',
    'ssh://gi%74@git.corp/docs.git', // escapes git might read otherwise
    'ssh://git:secret@git.corp/docs.git',
    'ssh://git@-oProxyCommand=x/docs.git',
    'ssh://git@-x/docs.git', // read as an option
    'ssh://git@git corp/docs.git',
    'https://git.corp/docs.git',
    'ssh://git@git.corp',
  ]) {
    t.is(sshTarget(url), null, url);
  }
});

test('paths reach ssh literally: % doubled, blanks quoted, a double quote refused', (t) => {
  t.is(sshPath('/run/secrets/known_hosts'), '/run/secrets/known_hosts');
  t.is(sshPath('/data/100%/key'), '/data/100%%/key');
  t.is(sshPath('/My Data/known_hosts'), '"/My Data/known_hosts"');
  t.throws(() => sshPath('/a"b'), { message: /double quote/ });
  t.throws(() => sshPath('/a\nb'), { message: /line break/ });
});

test('one set of options for direct logins and the shared connection’s config file', (t) => {
  const options = sshClientOptions({ knownHostsFile: '/k/known hosts', sshKeyFile: '/k/id' });
  t.deepEqual(Object.fromEntries(options), {
    BatchMode: 'yes',
    StrictHostKeyChecking: 'yes',
    UserKnownHostsFile: '"/k/known hosts"',
    GlobalKnownHostsFile: '/dev/null',
    UpdateHostKeys: 'no',
    GSSAPIAuthentication: 'no',
    IdentitiesOnly: 'yes',
    IdentityFile: '/k/id',
  });
  t.is(Object.fromEntries(sshClientOptions({ knownHostsFile: '/k' })).IdentityFile, 'none');
  t.throws(() => sshClientOptions({}), { message: /knownHostsFile/ });
  const line = sshCommandLine(options);
  t.true(line.startsWith('ssh -F /dev/null -o BatchMode=yes '));
  t.true(line.includes(` -o 'UserKnownHostsFile="/k/known hosts"' `));
  t.true(sshConfigText(options).includes('UserKnownHostsFile "/k/known hosts"\n'));
  t.is(sshCommandLine([], "/data/it's/ssh/conf"), "ssh -F '/data/it'\\''s/ssh/conf'");
});

test('no shared connection where an agent may run as the server’s user (it could connect to the socket)', (t) => {
  const agent = (command: string[], runAsUser: string) => ({
    ...loadConfig({ env: { ENCLAVE_DATA_DIR: '/nowhere' } }).agent,
    command,
    runAsUser,
  });
  t.false(agentSharesServerUser(agent([], 'server'), 10001), 'no agent jobs at all');
  t.true(agentSharesServerUser(agent(['agent'], 'auto'), 10001), 'the image: the agent is the server’s uid, sandboxed');
  t.false(agentSharesServerUser(agent(['agent'], 'auto'), 0), 'a root server: the agent has a uid of its own');
  t.true(agentSharesServerUser(agent(['agent'], 'server'), 0));
  t.false(agentSharesServerUser(agent(['agent'], '10002:10002'), 0));
  t.true(agentSharesServerUser(agent(['agent'], '10001:10001'), 10001));
});
