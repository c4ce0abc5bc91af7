import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/loadConfig.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { runApplianceExpectingFailure } from '../helpers/spawnAppliance.js';

test('defaults load and validate on their own', (t) => {
  const config = loadConfig({ env: {} });
  t.is(config.server.port, 8080);
  t.is(config.limits.adminBodyBytes, 1024 * 1024);
  t.is(config.limits.feedbackBodyBytes, 16 * 1024);
  t.is(config.export.linkTtlSeconds, 3600);
  t.is(config.agent.archiveAfterDays, 30);
  t.true(config.dataDir.startsWith('/'));
});

test('file then environment override the defaults; aliases and SECTION__KEY both work', async (t) => {
  const dir = await makeTempDir();
  const file = join(dir, 'enclave.json');
  await writeFile(file, JSON.stringify({ server: { port: 9000, host: '0.0.0.0' }, agent: { timeoutSeconds: 60 } }));
  const config = loadConfig({
    env: {
      ENCLAVE_CONFIG: file,
      ENCLAVE_PORT: '9100',
      ENCLAVE_PUBLIC_URL: 'http://docs.corp.internal',
      ENCLAVE_AGENT__COMMAND: '["/bin/true"]',
      ENCLAVE_STATIC_EXPORT__KEEP_VERSIONS: '5',
    },
  });
  t.is(config.server.port, 9100, 'env beats file');
  t.is(config.server.host, '0.0.0.0', 'file beats defaults');
  t.is(config.server.publicUrl, 'http://docs.corp.internal');
  t.deepEqual(config.agent.command, ['/bin/true']);
  t.is(config.agent.timeoutSeconds, 60);
  t.is(config.staticExport.keepVersions, 5);
});

test('NAME_FILE reads a setting from a file, so a deploy token never sits in the environment; an unreadable one is a listed problem', async (t) => {
  const dir = await makeTempDir();
  t.teardown(() => import('node:fs/promises').then((fs) => fs.rm(dir, { recursive: true, force: true })));
  const secret = join(dir, 'repository');
  await writeFile(secret, 'https://bot:tok-42@git.corp/docs.git\n', { mode: 0o600 });
  await writeFile(join(dir, 'port'), '9200');
  const config = loadConfig({ env: { ENCLAVE_AGENT__REPOSITORY_FILE: secret, ENCLAVE_PORT_FILE: join(dir, 'port') } });
  t.is(config.agent.repository, 'https://bot:tok-42@git.corp/docs.git', 'one trailing newline dropped');
  t.is(config.server.port, 9200, 'aliases take _FILE too, and the value is parsed like the variable would be');
  const err = t.throws(() => loadConfig({ env: { ENCLAVE_AGENT__REPOSITORY_FILE: join(dir, 'missing') } }), { instanceOf: ConfigError });
  t.deepEqual(err!.problems, [`ENCLAVE_AGENT__REPOSITORY_FILE: cannot read ${join(dir, 'missing')} (ENOENT)`]);
});

test('every problem is listed at once, naming each key', async (t) => {
  const dir = await makeTempDir();
  const file = join(dir, 'enclave.json');
  await writeFile(file, JSON.stringify({ server: { prot: 1 }, logLevel: 'loud', export: { linkTtlSeconds: 9_999_999 } }));
  const err = t.throws(() => loadConfig({ env: { ENCLAVE_CONFIG: file, ENCLAVE_PORT: 'eighty' } }), { instanceOf: ConfigError });
  const text = err!.problems.join('\n');
  t.true(err!.problems.length >= 4, text);
  t.regex(text, /server\.port/);
  t.regex(text, /prot/);
  t.regex(text, /logLevel/);
  t.regex(text, /export\.linkTtlSeconds/);
});

test('an unreadable or non-JSON config file is named in the error', async (t) => {
  const dir = await makeTempDir();
  const file = join(dir, 'broken.json');
  await writeFile(file, '{ "server": ');
  const bad = t.throws(() => loadConfig({ env: { ENCLAVE_CONFIG: file } }), { instanceOf: ConfigError });
  t.regex(bad!.message, /broken\.json: not valid JSON/);
  const missing = t.throws(() => loadConfig({ env: { ENCLAVE_CONFIG: join(dir, 'nope.json') } }), { instanceOf: ConfigError });
  t.regex(missing!.message, /nope\.json: cannot read \(ENOENT\)/);
});

test('the server refuses to start on bad config, listing problems without a stack trace', async (t) => {
  const dir = await makeTempDir();
  const result = await runApplianceExpectingFailure({ ENCLAVE_DATA_DIR: dir, ENCLAVE_PORT: '-1', ENCLAVE_LOG_LEVEL: 'chatty' });
  t.is(result.code, 78);
  t.regex(result.stderr, /server\.port/);
  t.regex(result.stderr, /logLevel/);
  t.notRegex(result.stderr, /\n\s+at /, 'no stack trace');
});
