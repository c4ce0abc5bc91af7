import { join } from 'node:path';
import { signBundleLink } from '../../bundle/links/bundleLinks.js';
import type { SigningKeyring } from '../../platform/SigningKeyring.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import type { BundleRecord, ExportJobRecord } from './ExportJobRecord.js';
import type { ExportJobRepository } from './ExportJobRepository.js';
import { exportPaths } from './ExportPaths.js';
import { packTarGzBundle } from './packTarGzBundle.js';

/** The archive formats a bundle can be downloaded in (the hosted examples fetch `bundle.tar.gz`). */
export const BUNDLE_FORMATS = ['zip', 'tar.gz'] as const;

/** One of BUNDLE_FORMATS. */
export type BundleFormat = (typeof BUNDLE_FORMATS)[number];

/** A signed download link for a job's bundle. */
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

/** Packs in progress, by job: two callers asking at once share one pack. */
const packing = new Map<string, Promise<NonNullable<BundleRecord['tarGz']>>>();

/** The job's `.tar.gz`, packed from its zip on first request and kept beside it. */
async function tarGzOf(deps: { jobs: ExportJobRepository; dataDir: string }, job: ExportJobRecord, bundle: BundleRecord) {
  if (bundle.tarGz) return bundle.tarGz;
  let pending = packing.get(job.id);
  if (!pending) {
    const dir = exportPaths(deps.dataDir, job.id).bundleDir;
    const file = `${bundle.file.replace(/\.zip$/i, '')}.tar.gz`;
    pending = packTarGzBundle(join(dir, bundle.file), join(dir, file), new Date(job.finishedAt ?? job.createdAt))
      .then(async (packed) => {
        const tarGz = { file, ...packed };
        await deps.jobs.recordTarGz(job.id, tarGz);
        return tarGz;
      })
      .finally(() => packing.delete(job.id));
    packing.set(job.id, pending);
  }
  return pending;
}

/**
 * Signs a fresh link to a completed job's bundle in `format` (the zip is built once, by the
 * job; the `.tar.gz` is packed from it once, on first request). 409 while the job is queued or
 * running, or when it failed.
 */
export async function issueBundleLink(
  deps: { jobs: ExportJobRepository; keyring: SigningKeyring; clock: Clock; ttlSeconds: number; publicUrl: () => string; dataDir: string },
  projectId: string,
  jobId: string,
  format: BundleFormat = 'zip',
): Promise<IssuedBundleLink> {
  const job = findProjectJob(deps.jobs, projectId, jobId);
  if (job.status !== 'completed' || !job.bundle || !job.version) {
    throw AppError.conflict(`Export job is ${job.status}; only a completed job has a bundle`, { status: job.status });
  }
  const { version } = job;
  const archive = format === 'tar.gz' ? await tarGzOf(deps, job, job.bundle) : job.bundle;
  const link = signBundleLink(deps.keyring, { jobId: job.id, file: archive.file }, deps.clock.now(), deps.ttlSeconds);
  return {
    jobId: job.id,
    bundleUrl: `${deps.publicUrl().replace(/\/+$/, '')}${link.pathAndQuery}`,
    sizeBytes: archive.sizeBytes,
    expiresAt: link.expiresAt.toISOString(),
    version,
    sha256: archive.sha256,
  };
}
