import { join } from 'node:path';
import type { SigningKeyring } from '../../platform/SigningKeyring.js';
import type { Clock } from '../../platform/Clock.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { ExportJobRecord, ExportJobStatus } from './ExportJobRecord.js';
import type { ExportJobRepository } from './ExportJobRepository.js';
import { exportPaths } from './ExportPaths.js';
import { type BundleFormat, findProjectJob, issueBundleLink, type IssuedBundleLink } from './issueBundleLink.js';
import type { ExportOptions } from './queueExportJob.js';
import { startExportJob } from './startExportJob.js';

/** A completed job's zip on disk, as the download route needs it. */
export interface BundleFile {
  path: string;
  file: string;
  sha256: string;
  sizeBytes: number;
}

/** What the static-export routes may do; the routes never see the job store itself. */
export interface ExportOperations {
  start(projectId: string, request: ExportOptions & { domain: string }): Promise<ExportJobRecord>;
  get(projectId: string, jobId: string): ExportJobRecord;
  /** The project's most recent jobs, newest first (`limit` of them), and whether older ones exist. */
  recent(projectId: string, options: { limit: number; status?: ExportJobStatus }): { jobs: ExportJobRecord[]; hasMore: boolean };
  issueLink(projectId: string, jobId: string, format?: BundleFormat): Promise<IssuedBundleLink>;
  /** The zip or `.tar.gz` of completed job `jobId` named `file`, or null (the link was valid, the bundle is gone). */
  bundleFile(jobId: string, file: string): BundleFile | null;
}

/** Binds the export operations to their store, clock and signing keys. */
export function createExportOperations(deps: {
  jobs: ExportJobRepository;
  sites: SiteDirectory;
  clock: Clock;
  keyring: SigningKeyring;
  linkTtlSeconds: number;
  defaultStrict: boolean;
  defaultShipWarnings: boolean;
  publicUrl: () => string;
  dataDir: string;
}): ExportOperations {
  return {
    start: (projectId, request) => startExportJob(deps, projectId, request),
    get: (projectId, jobId) => findProjectJob(deps.jobs, projectId, jobId),
    recent(projectId, { limit, status }) {
      const mine = deps.jobs.list().filter((j) => j.projectId === projectId && (!status || j.status === status));
      // Newest first; the id breaks ties so the order is total.
      const sorted = [...mine].sort((a, b) =>
        a.createdAt === b.createdAt ? b.id.localeCompare(a.id) : b.createdAt.localeCompare(a.createdAt),
      );
      return { jobs: sorted.slice(0, limit), hasMore: sorted.length > limit };
    },
    issueLink: (projectId, jobId, format) => issueBundleLink({ ...deps, ttlSeconds: deps.linkTtlSeconds }, projectId, jobId, format),
    bundleFile(jobId, file) {
      const job = deps.jobs.find(jobId);
      if (job?.status !== 'completed' || !job.bundle) return null;
      const archive = [job.bundle, job.bundle.tarGz].find((a) => a?.file === file);
      if (!archive) return null;
      return {
        path: join(exportPaths(deps.dataDir, job.id).bundleDir, archive.file),
        file: archive.file,
        sha256: archive.sha256,
        sizeBytes: archive.sizeBytes,
      };
    },
  };
}
