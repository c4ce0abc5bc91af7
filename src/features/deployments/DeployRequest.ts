import type { DeploymentOrigin, DeploymentRecord } from './DeploymentRecord.js';

/** How to deploy one bundle. */
export interface DeployRequest {
  origin: DeploymentOrigin;
  /** Version the bundle's manifest must name, or null for any. */
  pin: string | null;
  /** Refuse with 409 instead of waiting when another deployment is running (API callers). */
  failIfBusy?: boolean;
  /** The operator's name for the deployment. */
  label?: string | null;
  /** Activate even when the bundle's build report lists failed pages (recorded on the deployment). */
  allowFailed?: boolean;
  /**
   * Refuse a bundle whose manifest names another domain than this site's (operator deploys;
   * the config's own bundle and re-exports are this site's by construction).
   */
  checkDomain?: boolean;
  /** With checkDomain: deploy it here anyway (recorded on the deployment). */
  allowOtherDomain?: boolean;
}

/** How a deployment ended: a new version went live, the bundle was already live, or a kept copy of it was switched to. */
export type DeployOutcome = 'activated' | 'unchanged' | 'reactivated';

/** A deployment that has been recorded and is running in the background. */
export interface StartedDeployment {
  record: DeploymentRecord;
  /** The record that answers for it once finished (an existing one when the bundle was already on disk). */
  done: Promise<DeploymentRecord>;
  /** The same, with how it ended. */
  finished: Promise<{ record: DeploymentRecord; outcome: DeployOutcome }>;
}

/** The `running` record of a new deployment of `source` to `site` (null: the default site), requested `at`. */
export function newDeploymentRecord(id: string, site: string | null, source: string, request: DeployRequest, at: string): DeploymentRecord {
  return {
    id,
    status: 'running',
    origin: request.origin,
    source,
    pin: request.pin,
    version: null,
    domain: null,
    jobId: null,
    bundleSha256: null,
    bundleBytes: null,
    fileCount: null,
    extractedBytes: null,
    requestedAt: at,
    finishedAt: null,
    activatedAt: null,
    error: null,
    site,
    label: request.label ?? null,
    failedPages: null,
    allowFailed: request.allowFailed ?? false,
    ...(request.checkDomain ? { domainCheck: request.allowOtherDomain ? 'overridden' : 'required' } : {}),
  };
}
