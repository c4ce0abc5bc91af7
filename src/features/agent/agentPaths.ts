import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where agent jobs keep their files. */
export interface AgentPaths {
  /** The appliance's own clones and git HOMEs, one directory per running job; emptied on boot. */
  workRoot: string;
  logRoot: string;
  /** The agent's copies (work tree + HOME), one directory per running job; emptied on boot. */
  treeRoot: string;
  /** The appliance's scratch directory of one run (clone in `repo/`, git's HOME in `home/`). */
  work(jobId: string): string;
  /** The agent's scratch directory of one run (its copy in `repo/`, its HOME in `home/`, its TMPDIR in `tmp/` when sandboxed). */
  tree(jobId: string): string;
  log(jobId: string): string;
}

/**
 * The agent layout: clones and logs under `<dataDir>/agent`, the agent's copies under
 * `treeRoot` — outside the data directory by default, because an agent running as another
 * user must be able to reach its copy without being able to enter the data directory. The
 * default is named after the data directory so two appliances on one host never clean up
 * each other's runs.
 */
export function agentPaths(dataDir: string, treeRoot: string | null = null): AgentPaths {
  const root = join(dataDir, 'agent');
  const workRoot = join(root, 'work');
  const logRoot = join(root, 'logs');
  const trees = treeRoot ?? join(tmpdir(), `enclave-agent-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`);
  return {
    workRoot,
    logRoot,
    treeRoot: trees,
    work: (jobId) => join(workRoot, jobId),
    tree: (jobId) => join(trees, jobId),
    log: (jobId) => join(logRoot, `${jobId}.log`),
  };
}
