import type { Config } from '../../config/schema.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import { randomId } from '../../platform/randomId.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { AutomationPorts } from './AutomationPorts.js';
import type { AutomationRunRecord, AutomationRunRepository } from './AutomationRunRepository.js';
import { buildAutomationPrompt } from './buildAutomationPrompt.js';

/** One configured automation. */
export type Automation = Config['automations'][number];

/** The hosted trigger answer. */
export interface AutomationStarted {
  schemaId: string;
  instanceId: string;
  jobId: string;
}

/**
 * One run: the commits since the last run whose agent job completed, appended to the prompt,
 * become a new agent job on the site's repository (its git source, or agent.repository).
 */
export async function runAutomation(
  deps: { sites: SiteDirectory; runs: AutomationRunRepository; ports: AutomationPorts; clock: Clock; defaultRepository: string | null },
  automation: Automation,
  trigger: AutomationRunRecord['trigger'],
): Promise<AutomationStarted> {
  const site = deps.sites.find(automation.site);
  if (!site) throw AppError.notFound(`Automation ${automation.id} names site ${automation.site}, which is not configured`);
  const lastCompleted = deps.runs
    .runsOf(automation.id)
    .find((r) => r.headSha !== null && deps.ports.agentJobStatus(r.projectId, r.jobId) === 'completed');
  const since = lastCompleted?.headSha ?? null;
  const history = await deps.ports.commitsSince(site.domain, since);
  const prompt = buildAutomationPrompt(
    automation.prompt,
    history && site.git ? { branch: site.git.branch, since, commits: history.commits } : null,
  );
  const repository = deps.defaultRepository ?? site.git?.git;
  const source = repository ? { repository, ...(site.git ? { ref: site.git.branch } : {}) } : undefined;
  const job = await deps.ports.startAgentJob(site.projectId, { prompt, ...(source ? { source } : {}) });
  const run: AutomationRunRecord = {
    id: randomId('wfi_'),
    automationId: automation.id,
    projectId: site.projectId,
    jobId: job.id,
    headSha: history?.head ?? null,
    trigger,
    createdAt: deps.clock.now().toISOString(),
  };
  await deps.runs.insert(run);
  return { schemaId: automation.id, instanceId: run.id, jobId: job.id };
}
