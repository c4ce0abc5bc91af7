import { z } from 'zod';
import type { UpdateStatusRecord } from '../UpdateStatusRecord.js';

/** The hosted update-status body (`author`/`screenshot*` of the hosted API: see the description). */
export const updateStatusSchema = z
  .object({
    _id: z.string(),
    projectId: z.string(),
    createdAt: z.string().datetime(),
    endedAt: z.string().datetime().nullable(),
    status: z.enum(['queued', 'in_progress', 'success', 'failure']),
    summary: z.string(),
    logs: z.array(z.string()),
    subdomain: z.string().describe('The site (its domain) this update deployed'),
    source: z.enum(['api', 'internal', 'dashboard', 'webhook', 'poll']),
    author: z.object({ name: z.string(), email: z.string() }).optional().describe('The commit author (absent until the commit is known)'),
    commit: z
      .object({
        sha: z.string(),
        ref: z.string(),
        message: z.string(),
        filesChanged: z.object({ added: z.array(z.string()), modified: z.array(z.string()), removed: z.array(z.string()) }),
      })
      .optional()
      .describe('Absent until the fetch found the commit; filesChanged is against the commit that was live'),
    exportJobId: z.string().nullable().describe('Enclave: the export job that built this update'),
  })
  .describe(
    "The hosted update status. Absent here: `screenshot`, `screenshotLight` and `screenshotDark` (this appliance takes no screenshots); `author` is the commit's author, not the hosted account that pushed.",
  );

/** A status record as the API shows it. */
export function presentUpdateStatus(u: UpdateStatusRecord): z.infer<typeof updateStatusSchema> {
  return {
    _id: u.id,
    projectId: u.projectId,
    createdAt: u.createdAt,
    endedAt: u.endedAt,
    status: u.status,
    summary: u.summary,
    logs: u.logs,
    subdomain: u.domain,
    source: u.source,
    ...(u.commit
      ? {
          author: u.commit.author,
          commit: { sha: u.commit.sha, ref: u.commit.ref, message: u.commit.message, filesChanged: u.commit.filesChanged },
        }
      : {}),
    exportJobId: u.exportJobId,
  };
}
