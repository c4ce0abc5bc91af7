/**
 * Messages between the server and an export worker process (`child_process.fork` IPC).
 * The worker renders and packs one job, reporting as it goes; the server owns the job record.
 */
import type { RenderSettings, WarmUpResult } from '../../../render/index.js';
import type { ReportSummary } from './summarizeReport.js';

/** Everything the worker needs to run one job; plain data only (it crosses a process boundary). */
export interface ExportTaskInput {
  sourceDir: string;
  /** Git ref to export when `sourceDir` is a repository; null exports the directory as is. */
  ref: string | null;
  workDir: string;
  /** This run's own scratch folder inside `workDir`. */
  runDir: string;
  bundleDir: string;
  /** ISO instant recorded in the manifest and the zip entries. */
  now: string;
  render: RenderSettings;
  /** The zip of the site's last completed export: unchanged files' compressed bytes are copied from it. */
  previousBundle?: string;
}

/** What a finished job produced. */
export interface ExportTaskResult extends ReportSummary {
  version: string;
  pageCount: number;
  expected: number;
  file: string;
  sizeBytes: number;
  sha256: string;
  /** Peak resident memory of the worker process (bytes), for benchmarks and logs. */
  peakRssBytes: number;
  renderMs: number;
  packMs: number;
  /** Fence languages the site uses; the next spare worker warms their grammars. */
  languages: string[];
  /** Pages reused from the site's incremental cache, and pages rendered afresh. */
  reusedPages: number;
  renderedPages: number;
  /** Why the incremental cache was thrown away at the start, for the server's log. */
  cacheDiscarded?: string;
  /** The cache reached its size bound: some pages were not kept (logged). */
  cacheFull?: boolean;
  /** Zip entries copied from the previous bundle rather than compressed again. */
  reusedZipEntries?: number;
}

/** Server → worker. */
export type ToExportWorker =
  | { type: 'run'; input: ExportTaskInput }
  | { type: 'abort' }
  /**
   * To a worker still waiting for its job: get these fence languages' grammars ready meanwhile,
   * then those the pages under `sources` use.
   */
  | { type: 'warm'; languages: string[]; sources: string[] };

/** Worker → server. */
export type FromExportWorker =
  | { type: 'ready' }
  /** Answer to `warm`: grammars loaded and compiled ahead before the job came (or all of them). */
  | { type: 'warmed'; warmed: WarmUpResult }
  | { type: 'rendering'; rendered: number; total: number }
  | { type: 'packing'; done: number; total: number; version: string; pageCount: number }
  | { type: 'done'; result: ExportTaskResult }
  | { type: 'failed'; error: string };
