/** What started an update: the hosted values (`api`, `internal`, `dashboard`) and Enclave's own. */
export type UpdateSource = 'api' | 'internal' | 'dashboard' | 'webhook' | 'poll';

/** The hosted update states. */
export type UpdateState = 'queued' | 'in_progress' | 'success' | 'failure';

/** The commit an update deployed (or tried to), with what it changed since the live one. */
export interface UpdateCommit {
  sha: string;
  ref: string;
  message: string;
  author: { name: string; email: string };
  filesChanged: { added: string[]; modified: string[]; removed: string[] };
}

/** One fetch → export → deploy of a git source, as `GET /v1/project/update-status/{id}` shows it. */
export interface UpdateStatusRecord {
  id: string;
  projectId: string;
  domain: string;
  createdAt: string;
  endedAt: string | null;
  status: UpdateState;
  summary: string;
  logs: string[];
  source: UpdateSource;
  commit: UpdateCommit | null;
  /** The export job that built it, once one was started. */
  exportJobId: string | null;
}

/** A git source's standing: what is live and how the last fetch went. */
export interface GitSourceState {
  domain: string;
  /** The commit whose export is live (null until one went live). */
  liveSha: string | null;
  /** The tip the last fetch saw. */
  fetchedSha: string | null;
  lastFetchAt: string | null;
  /** Why the last fetch, export or deploy failed (null once one succeeded). */
  lastError: string | null;
}
