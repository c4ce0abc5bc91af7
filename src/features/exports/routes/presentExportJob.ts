import { z } from 'zod';
import type { ExportJobRecord } from '../ExportJobRecord.js';

/** The public shape of an export job (SPEC section 4). */
export const exportJobSchema = z.object({
  jobId: z.string().describe('se_ + 16 hex'),
  domain: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  progress: z.number().min(0).max(100),
  pageCount: z.number().int().describe('Pages rendered so far; the total once completed'),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.string().nullable().describe('Bundle version: requested, or derived from the content once known'),
  error: z.string().optional().describe('Only when failed'),
  warnings: z.number().int().describe('Warnings count; details in the bundle report'),
});

/** Whitelists the fields of a job record that clients see. */
export function presentExportJob(job: ExportJobRecord): z.infer<typeof exportJobSchema> {
  return {
    jobId: job.id,
    domain: job.domain,
    status: job.status,
    progress: job.progress,
    pageCount: job.pageCount,
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
    version: job.version,
    ...(job.status === 'failed' ? { error: job.error ?? 'export failed' } : {}),
    warnings: job.warnings,
  };
}

/** The public shape of a bundle link. */
export const bundleLinkSchema = z.object({
  jobId: z.string(),
  bundleUrl: z.string().describe('Absolute, signed, expiring download URL'),
  sizeBytes: z.number().int(),
  expiresAt: z.string(),
  version: z.string(),
  sha256: z.string().describe('SHA-256 (hex) of the zip'),
});
