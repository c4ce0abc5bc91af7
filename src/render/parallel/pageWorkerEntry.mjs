// Worker-thread entry for page rendering. Node 20 doesn't pass the tsx loader to worker
// threads, so in a source checkout this registers it before loading the TypeScript module;
// the compiled build (dist/) loads the JavaScript module directly.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const source = new URL('./runPageWorker.ts', import.meta.url);
if (existsSync(fileURLToPath(source))) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(source.href);
} else {
  await import(new URL('./runPageWorker.js', import.meta.url).href);
}
