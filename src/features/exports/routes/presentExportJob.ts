import { z } from 'zod';
import {
  exportAudienceSchema,
  EXPORT_WARNING_KINDS,
  MAX_GROUP_ENTRIES,
  MAX_JOB_WARNINGS,
  type ExportJobRecord,
} from '../ExportJobRecord.js';

/** The public shape of an export job (SPEC section 4). */
export const exportJobSchema = z.object({
  jobId: z.string().describe('se_ + 16 hex'),
  domain: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  progress: z.number().min(0).max(100),
  pageCount: z.number().int().describe('Pages rendered so far; the total once completed'),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  version: z.string().nullable().describe('Bundle version: requested, or derived from the content once known'),
  error: z.string().optional().describe('Only when failed'),
  audience: exportAudienceSchema.optional().describe('The reader audience the export is limited to, when it is'),
  expectedPages: z
    .number()
    .int()
    .nullable()
    .describe('Pages the source declares (navigation and page files); null until the run has read the source'),
  failedPages: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .describe('Pages that did not render (each got an error page); a bundle with failed pages is refused by deploy unless forced'),
  warnings: z
    .array(z.object({ kind: z.enum(EXPORT_WARNING_KINDS), page: z.string().nullable(), message: z.string() }))
    .describe(`The first ${MAX_JOB_WARNINGS} warnings; the bundle's _enclave/report.json has them all`),
  warningCount: z.number().int().describe('Total number of warnings'),
  warningGroups: z
    .array(
      z.object({
        kind: z.enum(EXPORT_WARNING_KINDS),
        count: z.number().int(),
        first: z.array(z.object({ page: z.string().nullable(), message: z.string() })),
      }),
    )
    .describe(`The warnings by kind: each kind's count and first ${MAX_GROUP_ENTRIES} entries, so no kind hides another`),
  reusedPages: z
    .number()
    .int()
    .optional()
    .describe("Once completed: pages whose rendering was reused from the site's previous export (their inputs were unchanged)"),
  renderedPages: z.number().int().optional().describe('Once completed: pages rendered afresh'),
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
    ...(job.audience ? { audience: job.audience } : {}),
    ...(job.status === 'failed' ? { error: job.error ?? 'export failed' } : {}),
    expectedPages: job.expectedPages,
    failedPages: job.failedPages.map(({ path, message }) => ({ path, message })),
    warnings: job.warnings.map(({ kind, page, message }) => ({ kind, page, message })),
    warningCount: job.warningCount,
    warningGroups: (job.warningGroups ?? []).map(({ kind, count, first }) => ({
      kind,
      count,
      first: first.map(({ page, message }) => ({ page, message })),
    })),
    ...(job.reusedPages === undefined ? {} : { reusedPages: job.reusedPages }),
    ...(job.renderedPages === undefined ? {} : { renderedPages: job.renderedPages }),
  };
}

/** The public shape of a bundle link. */
export const bundleLinkSchema = z.object({
  jobId: z.string(),
  bundleUrl: z.url().describe('Absolute, signed, expiring download URL'),
  sizeBytes: z.number().int(),
  expiresAt: z.iso.datetime(),
  version: z.string(),
  sha256: z.string().describe('SHA-256 (hex) of the archive the link downloads'),
});
