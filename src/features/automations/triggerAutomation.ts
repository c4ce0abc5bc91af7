import { AppError } from '../../platform/AppError.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import { type Automation, type AutomationStarted, runAutomation } from './runAutomation.js';

/**
 * The workflow API's trigger: 404 for an automation that is not configured or belongs to
 * another project's site, 400 for one without a schedule (as the hosted API answers), else a run.
 */
export async function triggerAutomation(
  deps: Parameters<typeof runAutomation>[0] & { automations: Automation[]; sites: SiteDirectory },
  projectId: string,
  automationId: string,
): Promise<AutomationStarted> {
  const automation = deps.automations.find((a) => a.id === automationId);
  if (!automation || deps.sites.find(automation.site)?.projectId !== projectId) throw AppError.notFound('Automation not found');
  if (!automation.cron) throw AppError.badRequest(`Automation ${automationId} has no schedule (cron) and cannot be triggered`);
  return runAutomation(deps, automation, 'api');
}
