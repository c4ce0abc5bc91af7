import { z } from 'zod';

/** A branch name git accepts and that can't be read as an option or a refspec. */
export const BRANCH_NAME = /^(?!-)(?!.*\.\.)(?!.*\/\/)(?!.*@\{)[A-Za-z0-9._/-]+(?<![./])$/;

/**
 * A site whose docs live in a repository on the network's git server. Secrets are never
 * written here: the token, ssh key and webhook secret are named by files (`…File`), so the
 * config file can be shared and the secrets kept in a mounted secret store.
 */
export const gitSourceSchema = z.strictObject({
  git: z
    .string()
    .regex(/^(https?:\/\/[^\s@/]+(?::\d+)?\/\S+|ssh:\/\/[^\s]+|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s]+)$/, 'must be an http(s):// or ssh URL')
    .refine((u) => !/^[a-z]+:\/\/[^/@]*@/i.test(u) || u.startsWith('ssh://'), 'credentials may not be written in the URL; use tokenFile')
    .describe('Repository URL: https://git.corp/docs/site.git, ssh://git@git.corp/docs/site.git or git@git.corp:docs/site.git.'),
  branch: z.string().regex(BRANCH_NAME, 'must be a branch name').describe('Deployment branch: its commits go live.'),
  path: z
    .string()
    .regex(/^(?!\/)(?!.*\.\.)[A-Za-z0-9._/-]+(?<!\/)$/, 'must be a relative folder in the repository')
    .optional()
    .describe('Folder of the docs inside the repository (docs.json there); the root when omitted.'),
  username: z.string().min(1).optional().describe('User name sent with tokenFile over http(s) (default "enclave").'),
  tokenFile: z.string().min(1).optional().describe('File holding the password or access token for http(s).'),
  sshKeyFile: z.string().min(1).optional().describe('File holding the private key for ssh (read by ssh only).'),
  knownHostsFile: z
    .string()
    .min(1)
    .optional()
    .describe('known_hosts file for ssh; required for ssh URLs (host keys are checked strictly, never learnt).'),
  webhookSecretFile: z
    .string()
    .min(1)
    .optional()
    .describe('File holding the webhook secret (HMAC key for Gitea/Forgejo, GitHub Enterprise, Bitbucket Server; the token for GitLab).'),
  pollCron: z
    .string()
    .min(1)
    .optional()
    .describe('Poll the branch on this cron and deploy a new commit (the fallback where webhooks cannot reach).'),
});

/** A site's git source as configured. */
export type GitSourceConfig = z.infer<typeof gitSourceSchema>;
