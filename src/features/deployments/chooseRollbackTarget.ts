import { AppError } from '../../platform/AppError.js';
import type { DeploymentRecord } from './deploymentStore.js';

/**
 * The kept version a rollback switches to: the one named (version label or deployment id), else
 * the newest kept one. Refuses (409) naming the active version, and (404) when none is kept.
 */
export function chooseRollbackTarget(
  kept: readonly DeploymentRecord[],
  active: DeploymentRecord | null,
  target: string | null,
): DeploymentRecord {
  if (target !== null && active && (active.id === target || active.version === target))
    throw AppError.conflict(`Version ${active.version} is already active`);
  const chosen = target === null ? kept[0] : kept.find((d) => d.id === target || d.version === target);
  if (!chosen)
    throw AppError.notFound(target === null ? 'No earlier version is kept to roll back to' : `No kept version ${JSON.stringify(target)}`);
  return chosen;
}
