/** Where a deployment request came from. */
export type DeploymentOrigin = 'config' | 'api' | 'export' | 'reexport';

/**
 * One attempt to deploy a bundle, and (when it succeeded) the extracted version it produced.
 * `running` → `failed` | `unchanged` | `active`; `active` ↔ `kept` (switch, rollback);
 * `kept` → `removed` when pruned.
 */
export interface DeploymentRecord {
  id: string;
  status: 'running' | 'active' | 'kept' | 'removed' | 'failed' | 'unchanged';
  origin: DeploymentOrigin;
  /** The bundle URL or path, with any link signature redacted. */
  source: string;
  pin: string | null;
  version: string | null;
  domain: string | null;
  jobId: string | null;
  bundleSha256: string | null;
  bundleBytes: number | null;
  fileCount: number | null;
  extractedBytes: number | null;
  requestedAt: string;
  finishedAt: string | null;
  activatedAt: string | null;
  error: string | null;
  /** The site deployed to: its domain, or null for the default site. Absent in older records (default site). */
  site?: string | null;
  /** The operator's name for this deployment (`enclave deploy --label`). Absent in older records. */
  label?: string | null;
  /** Pages the bundle's report lists as failed, when it has a report. */
  failedPages?: number | null;
  /** The operator deployed it despite failed pages (`--allow-failed`). */
  allowFailed?: boolean;
  /**
   * An operator's deployment checks that the bundle was built for this site (`required`), or
   * was told to put it here anyway (`overridden`, `--allow-other-domain`). Absent: no check.
   */
  domainCheck?: 'required' | 'overridden';
}

/** Something that happened to the live site, for the history view. */
export interface DeploymentEvent {
  at: string;
  kind: 'activated' | 'rolled_back' | 'refused' | 'removed' | 'unchanged' | 'reactivated';
  deploymentId: string;
  version: string | null;
  detail: string | null;
}
