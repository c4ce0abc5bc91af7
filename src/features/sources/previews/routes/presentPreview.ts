import { z } from 'zod';
import type { PreviewUrls } from '../previewAddress.js';
import type { PreviewRecord } from '../PreviewRecord.js';

/** A preview as the API shows it. */
export const previewSchema = z.object({
  id: z.string(),
  projectId: z.string(),
  subdomain: z.string().describe('The site the preview is of (its domain), as update statuses name it'),
  branch: z.string(),
  slug: z.string(),
  status: z
    .enum(['building', 'ready', 'failed'])
    .describe('`failed`: the first build failed; a later failure keeps the served version (see `error`)'),
  commit: z.string().nullable().describe('The commit served (null until a build went live)'),
  previewUrl: z.string().url(),
  pathUrl: z.string().url().describe("Under `/_preview/<slug>/` of the site's host"),
  hostUrl: z.string().url().nullable().describe('On the preview host pattern (`sources.previews.host`), when one is set'),
  statusId: z.string().describe('The latest (re)deploy: `GET /v1/project/update-status/{statusId}`'),
  agentJobId: z.string().nullable(),
  createdAt: z.string().datetime(),
  deployedAt: z.string().datetime().nullable(),
  expiresAt: z.string().datetime(),
  error: z.string().nullable(),
});

/** The API's view of a preview record (fields whitelisted). */
export function presentPreview(preview: PreviewRecord, urls: PreviewUrls): z.infer<typeof previewSchema> {
  return {
    id: preview.id,
    projectId: preview.projectId,
    subdomain: preview.domain,
    branch: preview.branch,
    slug: preview.slug,
    status: preview.state,
    commit: preview.sha,
    previewUrl: urls.url,
    pathUrl: urls.pathUrl,
    hostUrl: urls.hostUrl,
    statusId: preview.statusId,
    agentJobId: preview.agentJobId,
    createdAt: preview.createdAt,
    deployedAt: preview.deployedAt,
    expiresAt: preview.expiresAt,
    error: preview.lastError,
  };
}
