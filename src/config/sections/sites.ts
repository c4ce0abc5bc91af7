import { z } from 'zod';
import { BARE_HOSTNAME } from '../../platform/bareHostname.js';
import { gitSourceSchema } from './gitSource.js';
import { readerAuthConfigSchema } from './readerAuth.js';

/** A bare host name: no scheme, port, path or trailing dot/slash. */
export const domainSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(BARE_HOSTNAME, 'must be a bare hostname (no scheme, port, path or trailing slash)');

/** A site's own deployment settings (the `staticExport.enabled/bundleUrl/version` trio, per site). */
export const siteDeployConfigSchema = z
  .strictObject({
    enabled: z.boolean().describe('Fetch, verify and serve bundleUrl for this site on startup.'),
    bundleUrl: z.string().min(1).nullable().optional().describe('http(s):// URL, file:// URL or plain path of the bundle zip.'),
    version: z.string().min(1).nullable().optional().describe('Pin: refuse a bundle whose manifest names another version.'),
  })
  .refine((c) => !c.enabled || (c.bundleUrl ?? null) !== null, {
    message: 'bundleUrl is required when enabled is true',
    path: ['bundleUrl'],
  });

/** One docs site: a host name mapped to a project and a source directory or git repository. */
export const siteConfigSchema = z
  .strictObject({
    domain: domainSchema.describe('Host name of the site.'),
    source: z
      .union([z.string().min(1), gitSourceSchema])
      .describe(
        'Directory holding Mintlify-format docs, a local git repository, or a branch of a remote repository ({ git, branch, path? }).',
      ),
    ref: z.string().min(1).optional().describe('Git ref to export when source is a repository.'),
    projectId: z
      .string()
      .regex(/^proj_[0-9a-f]{16}$/)
      .optional()
      .describe('Owner project; default project when omitted.'),
    authorScripts: z
      .boolean()
      .optional()
      .describe(
        'Keep scripts written in pages (<script>, on… attributes, javascript: links) when exporting this site. Default false: they are removed and listed in the report.',
      ),
    auth: readerAuthConfigSchema
      .optional()
      .describe('Reader sign-in for this site (mode none, the default, or password); see README "Reader sign-in".'),
    staticExport: siteDeployConfigSchema
      .optional()
      .describe(
        "This site's own served bundle: it gets its own deployments, rollback and pin, served for requests whose Host is its domain.",
      ),
  })
  .refine((s) => typeof s.source === 'string' || s.ref === undefined, {
    message: 'ref does not apply to a git source (it follows source.branch)',
    path: ['ref'],
  });

/** One site as the config file declares it. */
export type ConfiguredSite = z.infer<typeof siteConfigSchema>;
