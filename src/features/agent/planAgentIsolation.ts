import type { Config } from '../../config/schema.js';
import { buildCleanEnv } from '../../platform/git/buildCleanEnv.js';
import { findProgram } from './findProgram.js';
import { planAgentSandbox, SANDBOX_LAUNCHER, type SandboxPlan } from './planAgentSandbox.js';
import { resolveAgentUser, type AgentUser } from './resolveAgentUser.js';

/** Who agents run as and how they are confined, as a server with `serverUid` would decide it. */
export interface AgentIsolation {
  /** The agent's own user, or null for the server's. */
  user: AgentUser | null;
  plan: SandboxPlan;
}

/**
 * Plans agent isolation from the config: the server at startup and `enclave doctor` both call
 * this, so the doctor warns of exactly what the server's start-up log does. Throws what
 * startup would (`agent.sandbox: "landlock"` without Landlock, a readable path holding the data
 * directory). With no `agent.command`, nothing runs: no plan, no warning.
 */
export function planAgentIsolation(config: Config, serverUid: number): AgentIsolation {
  const settings = config.agent;
  const user = resolveAgentUser(settings.runAsUser, serverUid);
  if (settings.command.length === 0) return { user, plan: { sandbox: null, reaper: null, warning: null, notes: [] } };
  const plan = planAgentSandbox({
    mode: settings.sandbox,
    agentHasOwnUser: user !== null,
    agentIsRoot: (user?.uid ?? serverUid) === 0,
    launcher: SANDBOX_LAUNCHER,
    dataDir: config.dataDir,
    program: findProgram(settings.command[0], buildCleanEnv('/').PATH),
    args: settings.command.slice(1),
    extraReadPaths: settings.sandboxReadPaths,
  });
  return { user, plan };
}
