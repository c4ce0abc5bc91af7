import { join } from 'node:path';
import { JsonStore } from '../../platform/store/JsonStore.js';
import type { AgentJobCursor, AgentJobRecord, AgentJobStatus } from './AgentJobRecord.js';

/** The document `agent.json`. */
export interface AgentData {
  schemaVersion: number;
  jobs: AgentJobRecord[];
}

const SCHEMA_VERSION = 1;

/** Newest first; the id breaks ties so the order (and so a cursor) is total. */
function newerFirst(a: AgentJobRecord, b: AgentJobRecord): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function isAfter(job: AgentJobRecord, cursor: AgentJobCursor): boolean {
  return job.createdAt < cursor.createdAt || (job.createdAt === cursor.createdAt && job.id < cursor.id);
}

/** Agent jobs in their own lowdb document; every change resolves once it is on disk. */
export class AgentJobStore {
  private constructor(private readonly store: JsonStore<AgentData>) {}

  /** Opens (or creates) `<dataDir>/agent.json`. */
  static async open(dataDir: string): Promise<AgentJobStore> {
    const store = await JsonStore.open<AgentData>({
      path: join(dataDir, 'agent.json'),
      schemaVersion: SCHEMA_VERSION,
      defaults: () => ({ schemaVersion: SCHEMA_VERSION, jobs: [] }),
    });
    return new AgentJobStore(store);
  }

  /** The job `id` of `projectId`; another project's job is as good as absent. */
  find(projectId: string, id: string): AgentJobRecord | undefined {
    return this.store.data.jobs.find((j) => j.id === id && j.projectId === projectId);
  }

  /** Every job with one of `statuses`, any project. */
  withStatus(...statuses: AgentJobStatus[]): AgentJobRecord[] {
    return this.store.data.jobs.filter((j) => statuses.includes(j.status));
  }

  /** One page of a project's jobs, newest first, starting after `cursor`. */
  page(
    projectId: string,
    options: { status?: AgentJobStatus; limit: number; cursor?: AgentJobCursor },
  ): { jobs: AgentJobRecord[]; hasMore: boolean } {
    const { status, limit, cursor } = options;
    const matching = this.store.data.jobs
      .filter((j) => j.projectId === projectId && (!status || j.status === status) && (!cursor || isAfter(j, cursor)))
      .sort(newerFirst);
    return { jobs: matching.slice(0, limit), hasMore: matching.length > limit };
  }

  /** Adds a job durably. */
  async insert(job: AgentJobRecord): Promise<void> {
    await this.store.update((d) => {
      d.jobs.push(job);
    });
  }

  /** Changes one job durably and returns it (undefined when it is gone). */
  async update(id: string, change: (job: AgentJobRecord) => void): Promise<AgentJobRecord | undefined> {
    return this.store.update((d) => {
      const job = d.jobs.find((j) => j.id === id);
      if (job) change(job);
      return job;
    });
  }

  /** Applies `change` to every job `select` picks, in one durable write; returns how many. */
  async updateWhere(select: (job: AgentJobRecord) => boolean, change: (job: AgentJobRecord) => void): Promise<number> {
    if (!this.store.data.jobs.some(select)) return 0; // nothing to do: skip the disk write
    return this.store.update((d) => {
      const chosen = d.jobs.filter(select);
      for (const job of chosen) change(job);
      return chosen.length;
    });
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<void> {
    return this.store.flush();
  }
}
