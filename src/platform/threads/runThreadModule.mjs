// Entry of every worker thread: loads the module named by `workerData.module` (a file URL
// without its extension). Node 20 doesn't pass the tsx loader on to worker threads, so in a
// source checkout (the `.ts` file is there) this registers tsx before loading the TypeScript
// module; the compiled build (dist/) loads the JavaScript module directly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';

const base = workerData.module;
if (existsSync(fileURLToPath(`${base}.ts`))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(`${base}.ts`);
} else {
  await import(`${base}.js`);
}
