import { Worker, type ResourceLimits } from 'node:worker_threads';

const entry = new URL('./runThreadModule.mjs', import.meta.url);

/**
 * Starts a worker thread running `module` (a URL from `new URL('../../threads/x.js', import.meta.url)`;
 * the extension is chosen by runThreadModule, so the same call works from src/ under tsx and
 * from the compiled build). `data` is the thread's `workerData`, beside the module's address.
 */
export function startThread(module: URL, data: object = {}, resourceLimits?: ResourceLimits): Worker {
  return new Worker(entry, { workerData: { ...data, module: module.href.replace(/\.(?:ts|js)$/, '') }, resourceLimits });
}
