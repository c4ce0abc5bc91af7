import { spawnSync } from 'node:child_process';
import type { AgentUser } from './resolveAgentUser.js';

/** How to spawn the agent: the program, its argv, and the uid/gid Node should switch to. */
export interface IsolatedCommand {
  command: string;
  args: string[];
  uid?: number;
  gid?: number;
  /** True when the agent runs as pid 1 of its own PID namespace. */
  pidNamespace: boolean;
}

let pidNamespaceWorks: boolean | null = null;

/** Whether `unshare` can make a PID namespace here (root with CAP_SYS_ADMIN; not in a default Docker container). Probed once. */
function canUnsharePids(): boolean {
  if (pidNamespaceWorks === null) {
    const probe = spawnSync('unshare', ['--pid', '--fork', '--kill-child', '--', 'true'], {
      stdio: 'ignore',
      timeout: 5000,
      env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' },
    });
    pidNamespaceWorks = probe.status === 0;
  }
  return pidNamespaceWorks;
}

/**
 * Wraps the agent's argv so it runs as `user` and, when the server is root and the kernel
 * lets it, as pid 1 of a fresh PID namespace: when that process ends, the kernel kills
 * everything else in the namespace, `setsid` or not. `unshare` drops to the user itself
 * (after making the namespace, which needs root); otherwise Node's spawn switches uid/gid,
 * which also clears the supplementary groups.
 */
export function isolateAgentCommand(argv: readonly string[], user: AgentUser | null, serverUid: number): IsolatedCommand {
  const [program, ...rest] = argv;
  if (serverUid === 0 && canUnsharePids()) {
    const drop = user ? ['--setgid', String(user.gid), '--setuid', String(user.uid)] : [];
    return { command: 'unshare', args: ['--pid', '--fork', '--kill-child', ...drop, '--', program, ...rest], pidNamespace: true };
  }
  return { command: program, args: rest, ...(user ? { uid: user.uid, gid: user.gid } : {}), pidNamespace: false };
}
