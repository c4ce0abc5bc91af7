import { runServe } from './cli/serve.js';

// Process entry for `npm start` and the container: the same code path as `enclave serve`.
try {
  process.exitCode = await runServe([], { out: process.stdout, err: process.stderr, env: process.env });
} catch (err) {
  // Startup failures print one clear line, never a stack trace.
  process.stderr.write(`enclave: failed to start: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
