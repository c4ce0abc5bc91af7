import cron from 'node-cron';
import { z } from 'zod';

/** Preview deployments of git branches (`POST /v1/project/preview/{projectId}`). */
export const previewsConfigSchema = z.strictObject({
  host: z
    .string()
    .regex(
      /^(?:[a-z0-9-]+\.)*[a-z0-9-]*\{branch\}[a-z0-9-]*(?:\.[a-z0-9-]+)+$/,
      'must be a host name with one {branch} in its first label, e.g. {branch}.preview.docs.example',
    )
    .nullable()
    .describe(
      "Host pattern previews are also served on where wildcard DNS points at the appliance ({branch} is the preview's slug); null: only under /_preview/<slug>/ of the site's host.",
    ),
  expireAfterHours: z
    .number()
    .int()
    .positive()
    .max(24 * 365)
    .describe('A preview is deleted this long after it was last deployed.'),
  expiryCron: z
    .string()
    .min(1)
    .refine((e) => cron.validate(e), 'not a valid cron expression')
    .describe('When expired previews are deleted (cron expression).'),
});

/** Git sources: how the appliance fetches sites whose `source` is `{ git, branch }`. */
export const sourcesConfigSchema = z.strictObject({
  fetchTimeoutSeconds: z
    .number()
    .int()
    .positive()
    .max(3600)
    .describe('Give up a fetch of a git source after this long (the live version stays).'),
  sshConnectionIdleSeconds: z
    .number()
    .int()
    .min(0)
    .max(86_400)
    .describe(
      'ssh sources: fetches share one ssh connection per server, key and known_hosts file, closed after this long unused (0: every fetch logs in).',
    ),
  previews: previewsConfigSchema,
});

/** The previews settings. */
export type PreviewsConfig = z.infer<typeof previewsConfigSchema>;
