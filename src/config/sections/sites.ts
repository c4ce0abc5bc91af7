import { z } from 'zod';
import { BARE_HOSTNAME } from '../../platform/bareHostname.js';

/** A bare host name: no scheme, port, path or trailing dot/slash. */
export const domainSchema = z
  .string()
  .min(1)
  .max(253)
  .regex(BARE_HOSTNAME, 'must be a bare hostname (no scheme, port, path or trailing slash)');

/** One docs site: a host name mapped to a project and a source directory or git repository. */
export const siteConfigSchema = z.strictObject({
  domain: domainSchema.describe('Host name of the site.'),
  source: z.string().min(1).describe('Directory holding Mintlify-format docs, or a local git repository.'),
  ref: z.string().min(1).optional().describe('Git ref to export when source is a repository.'),
  projectId: z.string().regex(/^proj_[0-9a-f]{16}$/).optional().describe('Owner project; default project when omitted.'),
});
