import { dirname } from 'node:path';

/**
 * The only PATH an agent or its git commands see: the usual system directories plus the one
 * holding this Node binary (so `node script.mjs` agents work in images that keep Node elsewhere).
 * It is fixed rather than copied from the server so nothing of the server's environment leaks.
 */
const SYSTEM_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

/**
 * A from-scratch environment for a child process: PATH, a scratch HOME, LANG and `extra`.
 * Nothing is inherited from the server, so admin keys, the signing secret's location and
 * whatever else the operator exported never reach the agent.
 */
export function buildCleanEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const path = [...new Set([...SYSTEM_PATH, dirname(process.execPath)])].join(':');
  return { PATH: path, HOME: home, LANG: 'C.UTF-8', ...extra };
}
