import { join } from 'node:path';

/** Where agent jobs keep their files inside the data directory. */
export interface AgentPaths {
  /** Scratch clones and homes, one directory per running job; emptied on boot. */
  workRoot: string;
  logRoot: string;
  /** The scratch directory of one run (clone in `repo/`, HOME in `home/`). */
  work(jobId: string): string;
  log(jobId: string): string;
}

/** The agent layout under `<dataDir>/agent`. */
export function agentPaths(dataDir: string): AgentPaths {
  const root = join(dataDir, 'agent');
  const workRoot = join(root, 'work');
  const logRoot = join(root, 'logs');
  return {
    workRoot,
    logRoot,
    work: (jobId) => join(workRoot, jobId),
    log: (jobId) => join(logRoot, `${jobId}.log`),
  };
}
