import { createZipSink } from '../../src/bundle/zip/createZipSink.js';
import { PreviousBundle } from '../../src/bundle/zip/PreviousBundle.js';
import { renderSite } from '../../src/render/renderSite.js';

const NOW = new Date('2026-03-04T05:06:07.000Z');

/**
 * Renders the site at `src` into a zip at `zip` with fixed job settings, so two packs of the same
 * sources are comparable byte for byte; copies unchanged entries from `previous` and takes page
 * bodies from the cache folder `cache` when given. Returns the render's result and how many zip
 * entries and deflate runs of streamed files were copied.
 */
export async function packSite(src: string, zip: string, options: { previous?: string; cache?: string } = {}) {
  const out = createZipSink({ previous: options.previous ? await PreviousBundle.open(options.previous) : null });
  const result = await renderSite({
    sourceDir: src,
    out,
    domain: 'docs.example.com',
    jobId: 'job-1',
    now: NOW,
    version: 'v',
    generatorVersion: '9.9.9',
    ...(options.cache ? { incremental: { dir: options.cache } } : {}),
  });
  await out.finish(zip, NOW);
  return { ...result, reusedEntries: out.reusedEntries(), copiedRuns: out.copiedRuns() };
}
