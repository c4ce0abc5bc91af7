import { z } from 'zod';
import { AGENT_JOB_STATUSES } from '../AgentJobRecord.js';
import { decodeAgentJobCursor } from './agentJobCursor.js';

/**
 * Prompts travel in an environment variable too, and Linux caps one variable at 128 KiB:
 * 32,000 characters fit even when every one takes four bytes in UTF-8.
 */
const MAX_PROMPT_CHARS = 32_000;

const noControlChars = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

/** A prompt: non-blank text, no NUL (it can't be passed through the environment). */
export const promptSchema = z
  .string()
  .min(1)
  .max(MAX_PROMPT_CHARS)
  .refine((s) => s.trim().length > 0, 'must not be empty')
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
  .describe('What the agent should do (stdin and ENCLAVE_PROMPT of the agent command).');

/**
 * A branch, tag or commit name. Stricter than git's own rules on purpose: it reaches git's
 * command line, so anything that could read as an option or a revision range is refused.
 */
const gitRefSchema = z
  .string()
  .min(1)
  .max(255)
  .regex(
    /^(?![-/.])(?!.*\.\.)(?!.*\/\/)(?!.*[/.]$)(?!.*\.lock$)[A-Za-z0-9._/-]+$/,
    'must be a branch, tag or commit name (letters, digits, . _ / -)',
  );

const repositorySchema = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((s) => !s.startsWith('-'), 'must not start with "-"')
  .refine(noControlChars, 'must not contain control characters')
  .describe('A local path or a git URL on your network (file, git, http(s), ssh).');

/** Body of POST /v2/agent/:projectId/job. */
export const createAgentJobBody = z.strictObject({
  prompt: promptSchema,
  source: z
    .strictObject({
      repository: repositorySchema.optional(),
      ref: gitRefSchema.optional().describe("Branch, tag or commit to start from; default: the repository's default branch."),
    })
    .optional(),
  model: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9._:/@+-]+$/, 'must be a model name (letters, digits, . _ : / @ + -)')
    .optional()
    .describe('Passed to the agent as ENCLAVE_MODEL; default agent.model.'),
});

/** Body of POST /v2/agent/:projectId/job/:id/message. */
export const agentMessageBody = z.strictObject({ prompt: promptSchema });

/** Path of one project's agent routes. */
export const agentProjectParams = z.strictObject({ projectId: z.string().describe('Project id (proj_…)') });

/** Path of one agent job. */
export const agentJobParams = z.strictObject({
  projectId: z.string().describe('Project id (proj_…)'),
  id: z.string().describe('Agent job id (aj_…)'),
});

/** Query of GET /v2/agent/:projectId/jobs. */
export const listAgentJobsQuery = z.strictObject({
  status: z.enum(AGENT_JOB_STATUSES).optional().describe('Only jobs in this status.'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Page size (1–100, default 20).'),
  cursor: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const position = decodeAgentJobCursor(value);
      if (!position) ctx.addIssue({ code: 'custom', message: 'is not a cursor returned by this endpoint' });
      return position ?? undefined;
    })
    .describe('nextCursor of the previous page.'),
});
