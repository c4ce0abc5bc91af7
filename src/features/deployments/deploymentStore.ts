import type { DeploymentEvent, DeploymentRecord } from './DeploymentRecord.js';
export type { DeploymentEvent, DeploymentOrigin, DeploymentRecord } from './DeploymentRecord.js';

/**
 * `deployments.json`, one per site; DeploymentRepository is its only writer. Files from before
 * re-exports moved to the export feature still hold a `reexports` map: exports.json's version 3
 * migration reads it once, and nothing here uses it.
 */
export interface DeploymentsData {
  schemaVersion: number;
  activeId: string | null;
  deployments: DeploymentRecord[];
  events: DeploymentEvent[];
  /** The last failure since the last successful activation (drives `degraded`). */
  lastError: { at: string; source: string; reason: string } | null;
  /** SHA-256 of the bundle the config's bundleUrl delivered last, so a restart doesn't undo an operator's rollback. */
  configBundleSha256: string | null;
  /**
   * Deployment ids folded into an existing record because they delivered a bundle already on
   * disk (redeploys add no history row); a client polling the folded id is shown the kept one.
   */
  merged: Record<string, string>;
}

/** Current schema version of deployments.json. */
export const DEPLOYMENTS_SCHEMA_VERSION = 1;

const MAX_FINISHED_RECORDS = 50;
const MAX_MERGED = 50;

/** Folds deployment `id` into `into` (see DeploymentsData.merged), keeping the newest MAX_MERGED. */
export function mergeRecord(d: DeploymentsData, id: string, into: string): void {
  d.deployments = d.deployments.filter((r) => r.id !== id);
  d.merged[id] = into;
  const ids = Object.keys(d.merged);
  for (const old of ids.slice(0, Math.max(0, ids.length - MAX_MERGED))) delete d.merged[old];
}
const MAX_EVENTS = 100;

/** Sort order for versions: most recently activated first. */
export function byActivationDesc(a: DeploymentRecord, b: DeploymentRecord): number {
  return (b.activatedAt ?? '').localeCompare(a.activatedAt ?? '');
}

/** Appends a history event, keeping the newest MAX_EVENTS. */
export function pushEvent(d: DeploymentsData, event: DeploymentEvent): void {
  d.events.push(event);
  if (d.events.length > MAX_EVENTS) d.events.splice(0, d.events.length - MAX_EVENTS);
}

/** Keeps every record of a version on disk (or running) plus the newest finished ones. */
export function trimRecords(d: DeploymentsData): void {
  let finished = 0;
  d.deployments = d.deployments.filter(
    (r) => r.status === 'active' || r.status === 'kept' || r.status === 'running' || ++finished <= MAX_FINISHED_RECORDS,
  );
}
