/**
 * Body of the thread that prepares zip entries (see ZipEntryCompressor): it deflates, hashes and
 * checksums files while the main thread renders the next pages.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from '../../platform/threads/lowerThreadPriority.js';
import { prepareZipEntry } from './prepareZipEntry.js';
import type { CompressBatch, ResponseBatch } from './ZipEntryCompressor.js';

/**
 * Everything this thread handles lives outside its heap (files arrive and leave as buffers), so
 * its heap hardly grows and V8 collects only once tens of megabytes of dead buffers have piled
 * up. So the thread runs a collection after every `COLLECT_EVERY_BYTES` of input, which lowers
 * the export's peak RSS; the few collections an export needs are short and run on the core
 * rendering doesn't use. (`gc` is only installed into contexts created after the flag is set.)
 */
const COLLECT_EVERY_BYTES = 8 * 2 ** 20;
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
let sinceCollect = 0;

// Woken by each batch of pages, this thread took the rendering thread's core for as long as
// the batch took to deflate (posts took 1.5 ms instead of 0.1); at the lowest priority it runs
// on the other core, or when rendering waits.
lowerThreadPriority();

const port = parentPort!;
port.on('message', (batch: CompressBatch) => {
  const responses: ResponseBatch = [];
  const transfers: ArrayBuffer[] = [];
  for (const request of batch) {
    try {
      const entry = prepareZipEntry(request.rel, request.content);
      responses.push({ id: request.id, entry });
      transfers.push(entry.data.buffer as ArrayBuffer);
    } catch (err) {
      responses.push({ id: request.id, error: (err as Error).message });
    }
    sinceCollect += request.content.length;
  }
  // The entries' bytes move to the main thread without a copy.
  port.postMessage(responses, transfers);
  if (sinceCollect >= COLLECT_EVERY_BYTES) {
    sinceCollect = 0;
    collect();
  }
});
