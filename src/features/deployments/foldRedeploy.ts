import type { DeploymentRecord } from './DeploymentRecord.js';
import { mergeRecord, pushEvent, type DeploymentsData } from './deploymentStore.js';
import { failedPagesRefusal } from './readFailedPages.js';

/** A redeploy that needs no new version: the record that answers for it, and what happened. */
export interface FoldedRedeploy {
  targetId: string;
  outcome: 'unchanged' | 'reactivated';
  detail: string;
  /** The bundle serves as asked, so an earlier failure no longer degrades the site. */
  clearsError: boolean;
}

/**
 * Decides whether deployment `record`, which delivered a bundle with `sha256`, needs no install
 * because that bundle is already on disk: the active version (or the config bundle applied
 * before, whose outcome the operator may have changed since), or a kept version `isLoaded`
 * says is servable. A kept version that went live with failed pages needs allowFailed again.
 * Returns null when the bundle must be installed.
 */
export function findRedeployTarget(
  data: DeploymentsData,
  record: DeploymentRecord,
  sha256: string,
  isLoaded: (id: string) => boolean,
): FoldedRedeploy | null {
  const active = data.deployments.find((d) => d.id === data.activeId) ?? null;
  const pinOk = (r: DeploymentRecord) => record.pin === null || record.pin === r.version;
  if (active && active.bundleSha256 === sha256 && pinOk(active))
    return { targetId: active.id, outcome: 'unchanged', detail: 'same bundle is already active', clearsError: true };
  if (active && record.origin === 'config' && data.configBundleSha256 === sha256) {
    return {
      targetId: active.id,
      outcome: 'unchanged',
      detail: 'config bundle unchanged since it was last applied; keeping the version chosen since',
      clearsError: false,
    };
  }
  const kept = data.deployments.find((d) => d.status === 'kept' && d.bundleSha256 === sha256 && pinOk(d) && isLoaded(d.id));
  if (!kept) return null;
  if (kept.failedPages && !record.allowFailed) throw failedPagesRefusal(kept.failedPages, []);
  return {
    targetId: kept.id,
    outcome: 'reactivated',
    detail: `same bundle as kept version ${kept.version}; switched back to it`,
    clearsError: true,
  };
}

/**
 * Applies a folded redeploy to the state (inside a store update): the new record disappears
 * into the target (see DeploymentsData.merged), which takes its label and, when it was kept,
 * becomes the active version.
 */
export function applyRedeploy(d: DeploymentsData, record: DeploymentRecord, sha256: string, folded: FoldedRedeploy, at: string): void {
  mergeRecord(d, record.id, folded.targetId);
  const into = d.deployments.find((r) => r.id === folded.targetId)!;
  if (record.label) into.label = record.label;
  if (folded.outcome === 'reactivated') {
    for (const r of d.deployments) if (r.id === d.activeId) r.status = 'kept';
    Object.assign(into, { status: 'active', activatedAt: at, allowFailed: into.allowFailed || record.allowFailed });
    d.activeId = into.id;
  }
  if (record.origin === 'config') d.configBundleSha256 = sha256;
  if (folded.clearsError) d.lastError = null;
  pushEvent(d, { at, kind: folded.outcome, deploymentId: into.id, version: into.version, detail: folded.detail });
}
