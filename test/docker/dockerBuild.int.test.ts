import test from 'ava';
import { execFile } from 'node:child_process';
import { projectRoot } from '../helpers/spawnAppliance.js';

// The Docker build replayed (scripts/check-docker-build.sh): a packaging check that costs as much
// CPU as a sixth of the rest of the suite, so `npm test` leaves it out and `npm run test:docker`
// runs it, after `npm test` in .ci/run. The Dockerfile's static checks stay in dockerfile.int.

/** Runs a bash script from the project root; resolves with its exit status and output, never rejects. */
function runScript(script: string, timeoutMs: number): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [script],
      { cwd: projectRoot, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

test('the Dockerfile build and start steps succeed in a temp copy, and the HEALTHCHECK probe passes', async (t) => {
  // An npm ci, a TypeScript build and a prune: a minute and a half on an idle machine, over ten
  // beside CPU hogs on a busy one (npm ci alone took 7 min at load 40). The bound only stops a
  // hang. Run without blocking this process, so ava's messages go on.
  t.timeout(30 * 60_000);
  const run = await runScript('scripts/check-docker-build.sh', 29 * 60_000);
  t.is(run.status, 0, `${run.stdout}\n${run.stderr}`);
  const port =
    /docker build replay: OK \(healthcheck passed on port (\d+); uid \d+, read-only tree, enclave on PATH, agent sandbox: landlock ABI \d+\)/.exec(
      run.stdout,
    )?.[1];
  t.truthy(port, run.stdout);
  // The replayed server is stopped with the script, not left running.
  await t.throwsAsync(fetch(`http://127.0.0.1:${port}/_enclave/health`));
});
