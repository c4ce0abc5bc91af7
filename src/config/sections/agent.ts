import cron from 'node-cron';
import { z } from 'zod';

/** Local AI-agent jobs (SPEC section 3). */
export const agentConfigSchema = z.strictObject({
  command: z
    .array(z.string().min(1))
    // A relative path would be resolved inside the clone, i.e. run a file from the repository.
    .refine((argv) => argv.length === 0 || argv[0].startsWith('/') || !argv[0].includes('/'), {
      message: 'the program must be an absolute path or a command name on PATH',
    })
    .describe('argv of the agent command (no shell); empty disables agent jobs.'),
  repository: z.string().min(1).nullable().describe('Default repository (path or git URL on your network).'),
  model: z.string().min(1).describe('Default model name passed as ENCLAVE_MODEL.'),
  prLinkTemplate: z
    .string()
    .min(1)
    .refine((t) => [...t.matchAll(/\{(\w+)\}/g)].every((m) => ['repository', 'base', 'branch', 'id', 'preview'].includes(m[1])), {
      message: 'unknown placeholder; use {repository}, {base}, {branch}, {id} or {preview}',
    })
    .nullable()
    .describe(
      "PR link template: {repository} {base} {branch} {id} {preview} (the branch preview's URL, empty without one). Gitea: https://git.corp/{repository}/compare/{base}...{branch}; GitLab: https://gitlab.corp/{repository}/-/merge_requests/new?merge_request[source_branch]={branch}&merge_request[target_branch]={base}; GitHub Enterprise: https://github.corp/{repository}/compare/{base}...{branch}?expand=1. null: push the branch, no link.",
    ),
  timeoutSeconds: z.number().int().positive().describe('An agent run is killed after this long.'),
  archiveAfterDays: z.number().positive().describe('Completed/failed jobs are archived after this many days.'),
  archiveCron: z
    .string()
    .min(1)
    .refine((e) => cron.validate(e), 'not a valid cron expression')
    .describe('When the archive task runs (cron expression).'),
  maxLogBytes: z.number().int().positive().describe('Output kept per job log.'),
  requestsPerHour: z.number().int().positive().describe('Create + message calls per project per hour.'),
  concurrency: z.number().int().min(1).max(4).describe('Agent runs executed at the same time; the rest wait in a queue.'),
  runAsUser: z
    .union([z.enum(['auto', 'server']), z.string().regex(/^\d+:\d+$/, 'use "auto", "server" or "uid:gid"')])
    .describe(
      'Who the agent runs as: "auto" (uid:gid 10002:10002 when the server runs as root, else the server\'s own user), "server" (always the server\'s user) or "uid:gid" (needs root).',
    ),
  sandbox: z
    .enum(['auto', 'landlock', 'off'])
    .describe(
      'Landlock sandbox for the agent (build/enclave-sandbox): "auto" sandboxes an agent that runs as the server\'s own user and warns when it cannot; "landlock" sandboxes every agent and refuses to start without it; "off" never.',
    ),
  sandboxReadPaths: z
    .array(z.string().startsWith('/', 'use an absolute path'))
    .describe(
      "More absolute paths a sandboxed agent may read (model files, a token file); system directories, Node's and the program's own directory are always readable.",
    ),
  workDir: z
    .string()
    .min(1)
    .nullable()
    .describe(
      "Where the agent's scratch copies live; null: a directory per data directory under the system temp dir. Must not be inside the data directory when the agent runs as another user or sandboxed.",
    ),
});
