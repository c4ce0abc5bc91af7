/**
 * Body of the thread that prepares zip entries (see ZipEntryCompressor): it deflates, hashes and
 * checksums files while the main thread renders the next pages.
 */
import { parentPort } from 'node:worker_threads';
import { prepareZipEntry } from './prepareZipEntry.js';
import type { CompressRequest, CompressResponse } from './ZipEntryCompressor.js';

const port = parentPort!;
port.on('message', (request: CompressRequest) => {
  let response: CompressResponse;
  try {
    response = { id: request.id, entry: prepareZipEntry(request.rel, request.content) };
  } catch (err) {
    response = { id: request.id, error: (err as Error).message };
  }
  // The entry's bytes move to the main thread without a copy.
  port.postMessage(response, 'entry' in response ? [response.entry.data.buffer as ArrayBuffer] : []);
});
