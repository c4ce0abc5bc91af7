/**
 * Entry of an export worker process (forked by runExportInChild). It renders one site and packs
 * its zip, reporting progress over IPC. Rendering and zipping are CPU- and memory-heavy; doing
 * them here keeps the server's event loop free and lets the server kill a runaway job.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createZipSink } from '../../../bundle/zip/createZipSink.js';
import { PreviousBundle } from '../../../bundle/zip/PreviousBundle.js';
import {
  checkDocsSource,
  type PreparedRenderer,
  preloadRenderer,
  prepareRenderer,
  type RenderSiteResult,
  renderSite,
} from '../../../render/index.js';
import { exportSourceAtRef } from './exportSourceAtRef.js';
import { summarizeReport } from './summarizeReport.js';
import { relaxHeapGrowthWhileSmall } from './heapGrowthPolicy.js';
import { type SourceStats, takeSourceStats } from './sourceStats.js';
import { mayBeUnchanged, recordExport, reuseUnchangedExport } from './UnchangedExport.js';
import type { ExportTaskInput, ExportTaskResult, FromExportWorker, ToExportWorker } from './exportWorkerProtocol.js';

/** Progress messages are coalesced to this interval (the server persists even less often). */
const PROGRESS_INTERVAL_MS = 100;

const controller = new AbortController();
/** Aborted when the job arrives: preparing for it stops then. */
const jobArrived = new AbortController();

/**
 * The renderer prepared while the worker waits (see `warm` below), with the thread that does the
 * render's tokenizing if the site is worth one. Started with the job instead, that thread would
 * load its code and grammars while the render does the same, and measured slower than none.
 */
let prepared: PreparedRenderer | undefined;

// The worker's heap cap makes V8 collect far more often than a small site needs (see the policy).
relaxHeapGrowthWhileSmall();

function send(message: FromExportWorker): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected) return resolve();
    process.send!(message, undefined, {}, () => resolve());
  });
}

/** `<domain>-<version>.zip`, with anything unexpected in the version replaced, for a safe file and URL segment. */
function bundleFileName(domain: string, version: string): string {
  return `${domain}-${version}.zip`.replace(/[^A-Za-z0-9._-]/g, '-');
}

async function run(input: ExportTaskInput): Promise<ExportTaskResult> {
  const now = new Date(input.now);
  const sourceDir = await checkedSource(input);
  const renderStart = performance.now();
  await mkdir(input.runDir, { recursive: true });
  const { stats, result: unchanged } = await exportIfChanged(input, sourceDir, renderStart);
  if (unchanged) return unchanged;
  let lastSent = 0;
  // Pages go straight into the zip (deflated on a thread of its own as they arrive, then kept in a
  // scratch file until the archive is written); no site folder is written.
  const previous = input.previousBundle ? await PreviousBundle.open(input.previousBundle) : null;
  const out = createZipSink({ thread: true, spillPath: join(input.runDir, 'zip-entries.spill'), previous });
  const rendered = await renderSite({
    ...input.render,
    sourceDir,
    out,
    now,
    ...(stats ? { sourceStats: stats } : {}), // unchanged files are not read again (readDocsSource)
    signal: controller.signal,
    codeThread: () => prepared?.codeThread(),
    onProgress(done, total) {
      const t = Date.now();
      if (done < total && t - lastSent < PROGRESS_INTERVAL_MS) return;
      lastSent = t;
      void send({ type: 'rendering', rendered: done, total });
    },
  });
  // Its work is done: its CPU and memory go to packing.
  void prepared?.close();
  controller.signal.throwIfAborted();
  // An empty bundle would deploy as a blank site: the source (or the `paths` filter) is wrong.
  if (rendered.expected === 0)
    throw new Error(
      input.render.paths ? 'none of the requested paths is a page of this source' : `the docs source has no pages (${input.sourceDir})`,
    );
  const packStart = performance.now();
  const file = bundleFileName(input.render.domain, rendered.version);
  void send({ type: 'packing', done: 0, total: 1, version: rendered.version, pageCount: rendered.pageCount + rendered.failed });
  const packed = await out.finish(join(input.bundleDir, file), now);
  const packMs = performance.now() - packStart;
  await rm(input.workDir, { recursive: true, force: true });
  const result: ExportTaskResult = {
    version: rendered.version,
    pageCount: rendered.pageCount,
    expected: rendered.report.pages.expected,
    ...summarizeReport(rendered.report),
    file,
    sizeBytes: packed.sizeBytes,
    sha256: packed.sha256,
    peakRssBytes: peakRss(),
    renderMs: Math.round(packStart - renderStart),
    packMs: Math.round(packMs),
    languages: rendered.languages,
    ...incrementalFields(rendered),
    reusedZipEntries: out.reusedEntries(),
  };
  if (stats && rendered.failed === 0)
    await recordExport(input, stats, { hash: rendered.sourceHash, files: rendered.sourceFileHashes }, result);
  return result;
}

/** The folder to export (the source, or a checkout of its ref), once it is seen to hold docs. */
async function checkedSource(input: ExportTaskInput): Promise<string> {
  let sourceDir = input.sourceDir;
  if (input.ref) {
    sourceDir = join(input.runDir, 'source');
    await exportSourceAtRef(input.sourceDir, input.ref, sourceDir);
  }
  const notDocs = await checkDocsSource(sourceDir);
  if (notDocs) throw new Error(notDocs);
  return sourceDir;
}

/**
 * Takes the source's stats for the record (before the source is read: a file changed during the
 * export then differs next time) and, when nothing changed since the last export, finishes the
 * job with its bundle (see reuseUnchangedExport).
 */
async function exportIfChanged(
  input: ExportTaskInput,
  sourceDir: string,
  started: number,
): Promise<{ stats: SourceStats | null; result?: ExportTaskResult }> {
  if (!mayBeUnchanged(input)) return { stats: null };
  const stats = await takeSourceStats(sourceDir, input.runDir);
  const unchanged = await reuseUnchangedExport(input, sourceDir, stats);
  if (!unchanged) return { stats };
  const result = { ...unchanged.result, peakRssBytes: peakRss(), renderMs: Math.round(performance.now() - started), packMs: 0 };
  await recordExport(input, stats, { hash: unchanged.sourceHash, files: unchanged.hashes }, result);
  await rm(input.workDir, { recursive: true, force: true });
  return { stats, result };
}

/** Peak resident memory of this process in bytes. */
const peakRss = () => process.resourceUsage().maxRSS * 1024;

/** What the job result says of the incremental cache: pages reused and rendered, and what the server should log. */
function incrementalFields(
  rendered: RenderSiteResult,
): Pick<ExportTaskResult, 'reusedPages' | 'renderedPages' | 'cacheDiscarded' | 'cacheFull'> {
  return {
    reusedPages: rendered.reusedPages,
    renderedPages: rendered.renderedPages,
    ...(rendered.cache?.discarded ? { cacheDiscarded: rendered.cache.discarded } : {}),
    ...(rendered.cache?.reachedBound ? { cacheFull: true } : {}),
  };
}

function describe(err: unknown): string {
  if (controller.signal.aborted) return 'export aborted';
  const message = err instanceof Error ? err.message : String(err);
  return message.split('\n')[0].slice(0, 500) || 'export failed';
}

let started = false;
process.on('message', (message: ToExportWorker) => {
  if (message.type === 'abort') {
    controller.abort();
    return;
  }
  if (message.type === 'warm') {
    // Only while waiting, and once: it stops as soon as the job arrives, so it only ever uses
    // time this worker would otherwise have idled.
    if (started || prepared) return;
    prepared = prepareRenderer({ languages: message.languages, sources: message.sources, signal: jobArrived.signal });
    void prepared.warmed.then((warmed) => warmed && send({ type: 'warmed', warmed })).catch(() => {});
    return;
  }
  if (message.type !== 'run' || started) return;
  started = true;
  jobArrived.abort();
  void run(message.input)
    .then(
      (result) => send({ type: 'done', result }),
      (err: unknown) => send({ type: 'failed', error: describe(err) }),
    )
    // The last message is flushed; leave (one process per job keeps memory bounded).
    .finally(() => process.exit(0));
});
// An orphaned worker (server killed) must not keep rendering for nobody.
process.on('disconnect', () => process.exit(0));
// A failed preload is not fatal here: the render loads the highlighter again and reports why it can't.
void preloadRenderer()
  .catch(() => {})
  .then(() => send({ type: 'ready' }));
