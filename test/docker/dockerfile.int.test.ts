import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../helpers/spawnAppliance.js';

const dockerfile = readFileSync(join(projectRoot, 'Dockerfile'), 'utf8');
const instructions = dockerfile.split('\n').filter((l) => /^[A-Z]+ /.test(l));

test('Dockerfile: multi-stage, non-root numeric user, one data volume, healthcheck without curl, exec-form entrypoint behind an init', (t) => {
  t.true(instructions.filter((l) => l.startsWith('FROM ')).length >= 2, 'multi-stage');
  t.regex(dockerfile, /^FROM node:22-bookworm-slim AS runtime$/m);
  const user = instructions.filter((l) => l.startsWith('USER ')).pop();
  t.regex(user ?? '', /^USER \d+(:\d+)?$/, 'numeric non-root user');
  t.notRegex(user ?? '', /^USER 0\b/);
  t.deepEqual(
    instructions.filter((l) => l.startsWith('VOLUME ')),
    ['VOLUME ["/data"]'],
  );
  const health = dockerfile.slice(dockerfile.indexOf('HEALTHCHECK'));
  t.regex(health, /CMD \["node"/, 'probe runs with node');
  t.notRegex(health, /curl|wget/);
  t.regex(
    dockerfile,
    /^ENTRYPOINT \["\/usr\/bin\/tini", "--", "\/app\/bin\/docker-entrypoint\.sh"\]$/m,
    'exec form behind tini, arguments to the CLI',
  );
  t.regex(dockerfile, /^CMD \["serve"\]$/m, 'no arguments means serve');
  t.regex(dockerfile, /ln -s \/app\/bin\/enclave\.js \/usr\/local\/bin\/enclave/, 'enclave on PATH');
  t.regex(dockerfile, /ENCLAVE_DATA_DIR=\/data/);
  // The agent sandbox launcher is compiled in the build stage; the runtime stage has no compiler.
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  t.regex(runtime, /^COPY --from=build \/app\/build\/enclave-sandbox \.\/build\/enclave-sandbox$/m);
  t.notRegex(runtime, /\bgcc\b/);
  // git only recommends ssh, and recommends are not installed: ssh:// sources need the client named.
  t.regex(runtime, /apt-get install[^\n]*\bopenssh-client\b/);
});
