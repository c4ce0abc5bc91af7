/** Lifecycle of an export job (SPEC section 4). */
export type ExportJobStatus = 'queued' | 'running' | 'completed' | 'failed';

/** The zip a completed job produced, under `<dataDir>/bundles/<jobId>/`. */
export interface BundleRecord {
  /** File name inside the job's bundle directory (also the last segment of the link path). */
  file: string;
  sizeBytes: number;
  sha256: string;
}

/** An export job as stored in `exports.json`; clients only ever see a presenter's whitelist. */
export interface ExportJobRecord {
  id: string;
  projectId: string;
  domain: string;
  status: ExportJobStatus;
  /** 0–100. */
  progress: number;
  /** Pages rendered so far; the total once completed. */
  pageCount: number;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** The version label the client asked for, if any. */
  requestedVersion: string | null;
  /** The bundle's version: the requested one, or the renderer's content-derived default once known. */
  version: string | null;
  paths: string[] | null;
  strict: boolean;
  /** Remote loads kept in the bundle (absent: removed, the default; records before this field lack it). */
  keepRemoteAssets?: boolean;
  error: string | null;
  warnings: number;
  failedPages: number;
  expectedPages: number | null;
  bundle: BundleRecord | null;
  /** Worker measurements of the last successful run (operations and benchmarks; not shown to clients). */
  stats?: { renderMs: number; packMs: number; peakRssBytes: number };
  /** How many times a restart of the appliance cut this job short while it was running. */
  interruptions: number;
  /** Pid of the worker process of the current run, so a restart can stop one a crash orphaned. */
  workerPid?: number | null;
}

/** The document `exports.json`. */
export interface ExportsData {
  schemaVersion: number;
  jobs: ExportJobRecord[];
}
