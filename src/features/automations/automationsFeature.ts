import type { Task } from '../../platform/Task.js';
import type { Feature, FeatureContext } from '../Feature.js';
import type { AutomationPorts } from './AutomationPorts.js';
import { AutomationRunRepository } from './AutomationRunRepository.js';
import { workflowRoutes } from './routes/workflowRoutes.js';
import { type Automation, type AutomationStarted, runAutomation } from './runAutomation.js';
import { triggerAutomation } from './triggerAutomation.js';

/** Automations, with a run's body for tests (what the cron calls). */
export interface AutomationsFeature extends Feature {
  run(automationId: string): Promise<AutomationStarted>;
}

/**
 * Builds the automations module: one Task per scheduled automation (the cron only starts a
 * run), the workflow trigger route, and the runs' store.
 */
export async function createAutomationsFeature(ctx: FeatureContext, ports: AutomationPorts): Promise<AutomationsFeature> {
  const logger = ctx.logger.child({ module: 'automations' });
  const automations: Automation[] = ctx.config.automations;
  const runs = await AutomationRunRepository.open(ctx.config.dataDir);
  const deps = { sites: ctx.sites, runs, ports, clock: ctx.clock, defaultRepository: ctx.config.agent.repository, automations };
  const run = async (automation: Automation, trigger: 'schedule' | 'api') => {
    const started = await runAutomation(deps, automation, trigger);
    logger.info({ automation: automation.id, ...started, trigger }, `automation ${automation.id} started agent job ${started.jobId}`);
    return started;
  };
  const tasks: Task[] = automations.flatMap((a) =>
    a.cron ? [{ name: `automation ${a.id}`, cron: a.cron, run: async () => void (await run(a, 'schedule')) }] : [],
  );
  return {
    name: 'automations',
    tasks,
    run(automationId) {
      const automation = automations.find((a) => a.id === automationId);
      if (!automation) return Promise.reject(new Error(`no automation ${automationId}`));
      return run(automation, 'schedule');
    },
    routes: workflowRoutes({ trigger: (projectId, automationId) => triggerAutomation(deps, projectId, automationId) }),
    async stop() {
      await runs.flush();
    },
  };
}
