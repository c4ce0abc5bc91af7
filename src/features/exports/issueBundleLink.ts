import { signBundleLink } from '../../bundle/links/bundleLinks.js';
import type { SigningKeyring } from '../../platform/SigningKeyring.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import type { ExportJobRecord } from './ExportJobRecord.js';
import type { ExportJobRepository } from './ExportJobRepository.js';

/** A signed download link for a job's zip. */
export interface IssuedBundleLink {
  jobId: string;
  bundleUrl: string;
  sizeBytes: number;
  expiresAt: string;
  version: string;
  sha256: string;
}

/** The job `jobId` if it belongs to `projectId`; another project's job is indistinguishable from none (404). */
export function findProjectJob(jobs: ExportJobRepository, projectId: string, jobId: string): ExportJobRecord {
  const job = jobs.find(jobId);
  if (!job || job.projectId !== projectId) throw AppError.notFound('Export job not found');
  return job;
}

/**
 * Signs a fresh link to a completed job's zip (the zip itself is built once, by the job).
 * 409 while the job is queued or running, or when it failed.
 */
export function issueBundleLink(
  deps: { jobs: ExportJobRepository; keyring: SigningKeyring; clock: Clock; ttlSeconds: number; publicUrl: () => string },
  projectId: string,
  jobId: string,
): IssuedBundleLink {
  const job = findProjectJob(deps.jobs, projectId, jobId);
  if (job.status !== 'completed' || !job.bundle || !job.version) {
    throw AppError.conflict(`Export job is ${job.status}; only a completed job has a bundle`, { status: job.status });
  }
  const link = signBundleLink(deps.keyring, { jobId: job.id, file: job.bundle.file }, deps.clock.now(), deps.ttlSeconds);
  return {
    jobId: job.id,
    bundleUrl: `${deps.publicUrl().replace(/\/+$/, '')}${link.pathAndQuery}`,
    sizeBytes: job.bundle.sizeBytes,
    expiresAt: link.expiresAt.toISOString(),
    version: job.version,
    sha256: job.bundle.sha256,
  };
}
