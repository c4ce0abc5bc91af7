/** Where a preview stands: its first build running, served, or its first build failed. */
export type PreviewState = 'building' | 'ready' | 'failed';

/** One branch of a git-sourced site served as a preview, as `previews.json` keeps it. */
export interface PreviewRecord {
  id: string;
  projectId: string;
  domain: string;
  branch: string;
  /** The path segment and host label it is served under (`/_preview/<slug>/`). */
  slug: string;
  state: PreviewState;
  /** The commit being served (null until a build went live). */
  sha: string | null;
  /** The served version's folder name under `<dataDir>/previews/` (null until one is). */
  versionName: string | null;
  /** The update status of the latest (re)deploy (`GET /v1/project/update-status/{id}`). */
  statusId: string;
  /** The agent job whose pull request it previews, if one asked for it. */
  agentJobId: string | null;
  createdAt: string;
  /** When the served version went live (null before). */
  deployedAt: string | null;
  /** When the expiry task deletes it: `expireAfterHours` after it was last requested. */
  expiresAt: string;
  /** Why the latest build failed (null once one succeeded); the served version, if any, stays. */
  lastError: string | null;
}
