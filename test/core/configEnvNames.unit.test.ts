import test from 'ava';
import { ConfigError, loadConfig } from '../../src/config/loadConfig.js';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ env, cwd: '/' });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

test('a bad value from the environment is reported by the variable that gave it', (t) => {
  t.deepEqual(problemsOf({ ENCLAVE_PORT: 'abc' }), ['ENCLAVE_PORT (server.port): Invalid input: expected number, received string']);
  const [nested] = problemsOf({ ENCLAVE_SERVER__SHUTDOWN_TIMEOUT_MS: '"soon"' });
  t.regex(nested, /^ENCLAVE_SERVER__SHUTDOWN_TIMEOUT_MS \(server\.shutdownTimeoutMs\): /);
  const [inside] = problemsOf({ ENCLAVE_SITES: '[{"domain":"Not A Host","source":"/srv"}]' });
  t.regex(inside, /^ENCLAVE_SITES \(sites\.0\.domain\): /, 'a problem inside a value names the variable that holds it');
});

test('every problem is listed at once, each by its variable', (t) => {
  const problems = problemsOf({ ENCLAVE_PORT: 'abc', ENCLAVE_HOST: '42' });
  t.is(problems.length, 2, problems.join('\n'));
  t.true(problems.some((p) => p.startsWith('ENCLAVE_PORT (server.port): ')));
  t.true(problems.some((p) => p.startsWith('ENCLAVE_HOST (server.host): ')));
});
