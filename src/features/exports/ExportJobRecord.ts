import { z } from 'zod';
/** Lifecycle of an export job (SPEC section 4). */
export const EXPORT_JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

/** One of EXPORT_JOB_STATUSES. */
export type ExportJobStatus = (typeof EXPORT_JOB_STATUSES)[number];

/** A page that did not render, and why. */
export interface FailedPage {
  path: string;
  message: string;
}

/** What kind of problem a warning is; `other` covers the renderer's free-form warnings. */
export const EXPORT_WARNING_KINDS = ['missingInput', 'brokenLink', 'missingImage', 'unknownComponent', 'other'] as const;

/** One of EXPORT_WARNING_KINDS. */
export type ExportWarningKind = (typeof EXPORT_WARNING_KINDS)[number];

/** One warning of an export run; `page` is null for site-wide findings. */
export interface ExportWarning {
  kind: ExportWarningKind;
  page: string | null;
  message: string;
}

/** How many warnings a job record keeps; the bundle's report.json has them all. */
export const MAX_JOB_WARNINGS = 100;

/** How many entries each kind of warning lists in `warningGroups`. */
export const MAX_GROUP_ENTRIES = 10;

/**
 * The warnings of one kind: how many, and the first few. Grouped so a large site's thousands of
 * broken links cannot hide its other warnings from the first-100 list.
 */
export interface WarningGroup {
  kind: ExportWarningKind;
  count: number;
  first: { page: string | null; message: string }[];
}

/** The zip a completed job produced, under `<dataDir>/bundles/<jobId>/`. */
export interface BundleRecord {
  /** File name inside the job's bundle directory (also the last segment of the link path). */
  file: string;
  sizeBytes: number;
  sha256: string;
  /** The same bundle as `.tar.gz`, once a caller asked for that format (packed from the zip once). */
  tarGz?: { file: string; sizeBytes: number; sha256: string };
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
  /** The admin chose to ship pages that lost content as warnings (absent: they fail). */
  shipWarnings?: boolean;
  /** Git tree-ish exported instead of the site's own ref (a fetched commit of a git source, a preview branch). */
  ref?: string;
  /** Asked to render every page afresh (absent: the incremental cache is used). */
  full?: boolean;
  /** Of the pages of the bundle, those reused from the incremental cache and those rendered afresh (set once completed). */
  reusedPages?: number;
  renderedPages?: number;
  /** Only what this reader audience may open (reader sign-in); absent: every page. */
  audience?: ExportAudience;
  error: string | null;
  /** The first warnings of the run (capped at MAX_JOB_WARNINGS); `warningCount` is the total. */
  warnings: ExportWarning[];
  warningCount: number;
  /** The warnings by kind, each with its count and first entries (absent on records made before grouping). */
  warningGroups?: WarningGroup[];
  /** Pages that did not render (each got an error page in the bundle). */
  failedPages: FailedPage[];
  /** Pages the source's navigation and files declare (the render report's `pages.expected`). */
  expectedPages: number | null;
  bundle: BundleRecord | null;
  /** Worker measurements of the last successful run (operations and benchmarks; not shown to clients). */
  stats?: { renderMs: number; packMs: number; peakRssBytes: number };
  /** How many times a restart of the appliance cut this job short while it was running. */
  interruptions: number;
  /** Pid of the worker process of the current run, so a restart can stop one a crash orphaned. */
  workerPid?: number | null;
}

/** What the last scheduled re-export of a domain built, from which state of its docs source. */
export interface ReexportRecord {
  sourceHash: string;
  at: string;
  jobId: string;
  version: string;
}

/** The document `exports.json`. */
export interface ExportsData {
  schemaVersion: number;
  jobs: ExportJobRecord[];
  /** Per re-exported domain (config `export.reexport`): the last re-export, so an unchanged source is not exported again. */
  reexports: Record<string, ReexportRecord>;
}

/** The audience an export may be limited to: the public, or a signed-in reader holding these groups. */
export const exportAudienceSchema = z.union([z.literal('public'), z.array(z.string().trim().min(1).max(200)).min(1).max(100)]);

/** See exportAudienceSchema. */
export type ExportAudience = z.infer<typeof exportAudienceSchema>;
