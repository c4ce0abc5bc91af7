import { z } from 'zod';
import type { DeploymentRecord } from '../DeploymentRecord.js';

/** A deployment as the API shows it. */
export const deploymentSchema = z.object({
  id: z.string(),
  status: z.enum(['running', 'active', 'kept', 'removed', 'failed', 'unchanged']),
  origin: z.enum(['config', 'api', 'export', 'reexport']),
  source: z.string().describe('Bundle URL or path; link signatures are redacted'),
  pin: z.string().nullable(),
  version: z.string().nullable(),
  domain: z.string().nullable(),
  jobId: z.string().nullable(),
  bundleSha256: z.string().nullable(),
  bundleBytes: z.number().int().nullable(),
  fileCount: z.number().int().nullable(),
  extractedBytes: z.number().int().nullable(),
  requestedAt: z.iso.datetime(),
  finishedAt: z.iso.datetime().nullable(),
  activatedAt: z.iso.datetime().nullable(),
  error: z.string().nullable(),
  site: z.string().nullable().describe('The site deployed to (its domain), or null for the default site'),
  label: z.string().nullable().describe("The operator's name for this deployment"),
  failedPages: z.number().int().nullable().describe("Pages the bundle's build report lists as failed (null: no report)"),
  allowFailed: z.boolean().describe('Deployed with allowFailed: activated despite failed pages'),
});

/** Whitelists the fields of a stored deployment record for an API answer. */
export function presentDeployment(record: DeploymentRecord): z.infer<typeof deploymentSchema> {
  return {
    id: record.id,
    status: record.status,
    origin: record.origin,
    source: record.source,
    pin: record.pin,
    version: record.version,
    domain: record.domain,
    jobId: record.jobId,
    bundleSha256: record.bundleSha256,
    bundleBytes: record.bundleBytes,
    fileCount: record.fileCount,
    extractedBytes: record.extractedBytes,
    requestedAt: record.requestedAt,
    finishedAt: record.finishedAt,
    activatedAt: record.activatedAt,
    error: record.error,
    site: record.site ?? null,
    label: record.label ?? null,
    failedPages: record.failedPages ?? null,
    allowFailed: record.allowFailed ?? false,
  };
}
