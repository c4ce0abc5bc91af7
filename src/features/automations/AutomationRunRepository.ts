import { join } from 'node:path';
import { JsonStore } from '../../platform/store/JsonStore.js';

/** One run of an automation: the agent job it started and the commit the agent was told about last. */
export interface AutomationRunRecord {
  id: string;
  automationId: string;
  projectId: string;
  jobId: string;
  /** The branch tip the run's prompt listed commits up to (null for a folder source). */
  headSha: string | null;
  trigger: 'schedule' | 'api';
  createdAt: string;
}

interface AutomationsData {
  schemaVersion: number;
  runs: AutomationRunRecord[];
}

const SCHEMA_VERSION = 1;
/** Runs kept per automation: enough to find the last completed one behind a streak of failures. */
const KEEP_PER_AUTOMATION = 100;

/** Automation runs in `automations.json`; every change is durable before it resolves. */
export class AutomationRunRepository {
  private constructor(private readonly store: JsonStore<AutomationsData>) {}

  /** Opens (or creates) `<dataDir>/automations.json`. */
  static async open(dataDir: string): Promise<AutomationRunRepository> {
    const store = await JsonStore.open<AutomationsData>({
      path: join(dataDir, 'automations.json'),
      schemaVersion: SCHEMA_VERSION,
      defaults: () => ({ schemaVersion: SCHEMA_VERSION, runs: [] }),
    });
    return new AutomationRunRepository(store);
  }

  /** Runs of `automationId`, newest first. */
  runsOf(automationId: string): AutomationRunRecord[] {
    return this.store.data.runs.filter((r) => r.automationId === automationId).reverse();
  }

  /** Records a run, dropping that automation's oldest beyond the cap. */
  async insert(run: AutomationRunRecord): Promise<void> {
    await this.store.update((d) => {
      d.runs.push(run);
      const mine = d.runs.filter((r) => r.automationId === run.automationId);
      if (mine.length > KEEP_PER_AUTOMATION) {
        const drop = new Set(mine.slice(0, mine.length - KEEP_PER_AUTOMATION));
        d.runs = d.runs.filter((r) => !drop.has(r));
      }
    });
  }

  /** Resolves once every change is on disk. */
  flush(): Promise<void> {
    return this.store.flush();
  }
}
