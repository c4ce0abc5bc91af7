import { runServe } from './cli/serve.js';

// Process entry for `npm start` and the container: the same code path as `enclave serve`.
process.exitCode = await runServe([], { out: process.stdout, err: process.stderr, env: process.env });
