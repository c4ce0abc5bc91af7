import { readdir, readFile } from 'node:fs/promises';
import pino from 'pino';
import type { Clock } from '../../src/platform/Clock.js';
import { masterLauncher } from '../../src/features/sources/ssh/createSshConnections.js';
import { SshConnections } from '../../src/features/sources/ssh/SshConnections.js';

/** True while `pid` runs (a zombie, exited but not yet reaped, counts as gone). */
export async function processRuns(pid: number): Promise<boolean> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return false;
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/** The command line of `pid` as one string (arguments joined by spaces), or '' once it is gone. */
export async function commandLine(pid: number): Promise<string> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').join(' ').trim();
}

/** Running processes whose command line mentions `text` (the data directory of an appliance). */
export async function processesMentioning(text: string): Promise<Array<{ pid: number; command: string }>> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const command = await commandLine(Number(name));
    if (command.includes(text) && (await processRuns(Number(name)))) found.push({ pid: Number(name), command });
  }
  return found;
}

/** Shared connections in `dir` as the appliance makes them (setpriv launcher, silent log). */
export async function sharedConnections(dir: string, clock: Clock, idleMs = 300_000): Promise<SshConnections> {
  const connections = new SshConnections({
    dir,
    clock,
    logger: pino({ level: 'silent' }),
    idleMs,
    launcher: masterLauncher(),
  });
  await connections.prepare();
  return connections;
}
