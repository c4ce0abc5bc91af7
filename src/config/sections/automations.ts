import { z } from 'zod';
import { domainSchema } from './sites.js';

/** Scheduled agent prompts (the hosted "workflows"): each run is an agent job on the site's repository. */
export const automationsConfigSchema = z
  .array(
    z.strictObject({
      id: z
        .string()
        .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be lower-case letters, digits and dashes')
        .describe('Name in the workflow API: /v1/workflow/{projectId}/{id}/trigger.'),
      cron: z
        .string()
        .min(1)
        .nullable()
        .optional()
        .describe('When it runs (cron expression). Without one it is not scheduled and its trigger answers 400.'),
      prompt: z.string().min(1).max(100_000).describe('What the agent is asked; the commits since the last completed run are appended.'),
      site: domainSchema.describe('The site whose repository the agent works on (and whose project owns the automation).'),
    }),
  )
  .refine((list) => new Set(list.map((a) => a.id)).size === list.length, { message: 'automation ids must be unique' })
  .describe('Agent prompts on a cron (hosted workflows).');
