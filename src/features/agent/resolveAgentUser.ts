/** The uid and gid an agent process runs as, when not the server's own. */
export interface AgentUser {
  uid: number;
  gid: number;
}

/** The unprivileged user `auto` picks when the server runs as root (the image creates it). */
export const DEFAULT_AGENT_USER: AgentUser = { uid: 10002, gid: 10002 };

/**
 * Turns `agent.runAsUser` into the user the agent runs as, or null for the server's own user.
 * A root server never hands its uid to the agent: as root the agent could read the data
 * directory and `/proc/<server>/environ`, so `auto` drops to a fixed unprivileged user.
 */
export function resolveAgentUser(setting: string, serverUid: number): AgentUser | null {
  if (setting === 'server') return null;
  if (setting === 'auto') return serverUid === 0 ? DEFAULT_AGENT_USER : null;
  const [uid, gid] = setting.split(':').map(Number);
  return uid === serverUid ? null : { uid, gid };
}
