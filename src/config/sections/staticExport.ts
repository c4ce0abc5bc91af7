import { z } from 'zod';
import { domainSchema } from './sites.js';

/** The deployment config the appliance consumes on startup (SPEC section 5). */
export const staticExportConfigSchema = z
  .strictObject({
    enabled: z.boolean().describe('Fetch, verify and serve bundleUrl on startup.'),
    bundleUrl: z.string().min(1).nullable().describe('http(s):// URL, file:// URL or plain path of the bundle zip.'),
    version: z.string().min(1).nullable().describe('Pin: refuse a bundle whose manifest names another version.'),
    domain: domainSchema
      .nullable()
      .describe(
        'Site whose deployments are the default site (served for unknown hosts, IP addresses and localhost; deploys without a domain). Null: the default site is whatever is deployed without a domain.',
      ),
    keepVersions: z.number().int().min(1).max(50).describe('Extracted versions kept on disk for rollback.'),
    fetchTimeoutSeconds: z.number().int().positive().describe('Give up a bundle download after this long.'),
    deployWaitSeconds: z
      .number()
      .int()
      .min(0)
      .describe(
        'How long POST /v1/deployments waits for the outcome before answering 202 with the running record (the deployment goes on either way).',
      ),
    maxBundleBytes: z.number().int().positive().describe('Largest bundle zip accepted.'),
    maxEntries: z.number().int().positive().describe('Most entries a bundle may hold.'),
    maxExtractedBytes: z.number().int().positive().describe('Largest total uncompressed size.'),
    maxCompressionRatio: z.number().positive().describe('Largest uncompressed/compressed ratio of an entry (zip-bomb guard).'),
    tryItOrigins: z
      .array(z.string().regex(/^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$/, 'must be an origin: http(s)://host[:port], nothing after it'))
      .describe(
        'Origins every "Try it" page may also send requests to, beyond the servers its OpenAPI document names (e.g. "https://api.staging.internal"). Other pages reach only their own origin.',
      ),
  })
  .refine((c) => !c.enabled || c.bundleUrl !== null, { message: 'bundleUrl is required when enabled is true', path: ['bundleUrl'] });

/** Export jobs, bundles and signed links (SPEC section 4). */
export const exportConfigSchema = z.strictObject({
  concurrency: z.number().int().min(1).max(8).describe('Export jobs that run at once.'),
  linkTtlSeconds: z.number().int().positive().max(604800).describe('Lifetime of a signed bundle link (at most 7 days).'),
  retentionDays: z.number().positive().describe('Bundles and job output older than this are deleted.'),
  cleanupCron: z.string().min(1).describe('When the retention task runs (cron expression).'),
  renderThreads: z
    .union([z.literal('all'), z.number().int().min(0).max(64)])
    .describe(
      'Extra threads that render pages of one export: "all" (one per core beyond the first), or a number (0: one thread). Each uses about 50-200 MB; an export with few pages to render starts none.',
    ),
  workerHeapMb: z
    .number()
    .int()
    .min(64)
    .max(8192)
    .describe('Heap cap of the export worker process in MiB: keeps its peak memory bounded on large sites.'),
  spareWorker: z
    .boolean()
    .describe(
      'Keep one export worker process loaded while no export runs (about 95 MB), so the next export starts rendering at once instead of after Node loads the renderer.',
    ),
  incrementalCacheMb: z
    .number()
    .int()
    .min(0)
    .max(65536)
    .describe(
      "Bound (MiB) of each site's incremental-export cache under <dataDir>/cache/<domain>/: an export reuses the pages whose inputs are unchanged since the last one (0: every export renders every page).",
    ),
  strict: z.boolean().describe('Default for jobs: abort on the first page that fails to render.'),
  shipWarnings: z
    .boolean()
    .describe(
      'Default for jobs (and scheduled re-exports): render a page whose content had to be dropped (an MDX {expression} that does not parse) with a warning, instead of failing it.',
    ),
  jobTimeoutSeconds: z.number().int().positive().describe('A job still rendering/packing after this long is killed and marked failed.'),
  reexport: z
    .array(
      z.strictObject({
        domain: z.string().min(1).describe('Site to re-export.'),
        cron: z.string().min(1).describe('When to check the source for changes.'),
        activate: z.boolean().describe('Serve the new bundle on this appliance once built.'),
      }),
    )
    .describe('Scheduled re-exports when a site source changed.'),
});
