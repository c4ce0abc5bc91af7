import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentSandbox } from './AgentSandbox.js';
import { isPathInside } from './isPathInside.js';

/** Where `npm run build` (and the image) put the launcher: `build/` beside `src/` or `dist/`. */
export const SANDBOX_LAUNCHER = fileURLToPath(new URL('../../../build/enclave-sandbox', import.meta.url));

/** What programs need to start and run; the launcher skips the ones a system lacks. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/proc', '/sys', '/dev'];
/** Shells redirect to /dev/null; the rest are harmless sinks and sources. */
const WRITABLE_DEVICES = ['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom'];

/** What startup knows when it decides how agents run. */
export interface SandboxSetup {
  mode: 'auto' | 'landlock' | 'off';
  /** True when the agent runs as a uid of its own (a root server): `auto` then needs no sandbox. */
  agentHasOwnUser: boolean;
  /** True when the agent runs as root (a root server with `agent.runAsUser` "server"). */
  agentIsRoot: boolean;
  launcher: string;
  dataDir: string;
  /** The agent program's path as found on the agent's PATH, or null if it is missing. */
  program: string | null;
  /** The rest of agent.command: an argument that is an existing file (`node /opt/agent/run.mjs`) is readable too. */
  args: readonly string[];
  /** `agent.sandboxReadPaths`: more the agent may read (its model files, a token file). */
  extraReadPaths: string[];
}

/** The decision: a sandbox, or none plus why that matters (a warning to log once), plus notes. */
export interface SandboxPlan {
  sandbox: AgentSandbox | null;
  /**
   * The launcher, when it works here, to run the agent under even without a sandbox
   * (`--reap-only`): it ends every process the agent started, `setsid` or not. Null without it.
   */
  reaper: string | null;
  warning: string | null;
  notes: string[];
}

/** Runs `launcher --probe`: a ruleset is really enforced, so a seccomp filter that blocks Landlock shows here. */
export function probeLandlock(launcher: string): { abi: number } | { error: string } {
  if (!existsSync(launcher)) return { error: `the launcher ${launcher} is missing (npm run build compiles it; it needs gcc)` };
  const probe = spawnSync(launcher, ['--probe'], { encoding: 'utf8', timeout: 5000, env: {} });
  const abi = /^landlock ABI (\d+)/.exec(probe.stdout ?? '');
  if (probe.status === 0 && abi) return { abi: Number(abi[1]) };
  return { error: (probe.stderr || probe.error?.message || `${launcher} --probe exited with ${probe.status}`).trim() };
}

/** Whether the launcher runs a program with `--reap-only` (built, executable, not blocked). */
function probeReaper(launcher: string): boolean {
  if (!existsSync(launcher)) return false;
  return (
    spawnSync(launcher, ['--reap-only', '--', 'true'], { stdio: 'ignore', timeout: 5000, env: { PATH: '/usr/bin:/bin' } }).status === 0
  );
}

/** The warning for an agent that runs as the server's user with nothing between them. */
function unsandboxedWarning(why: string): string {
  return `agents run unsandboxed as the server's own user: they can read the server's environment (/proc/<pid>/environ, e.g. a deploy token) and the data directory, admin and signing secrets included (${why}). Treat agent.command as trusted code, or see SECURITY.md`;
}

/**
 * Decides, once at startup, whether agents run in the Landlock launcher. `auto` sandboxes an
 * agent that shares the server's uid (it could otherwise read the server's environment and
 * data directory) and warns when it cannot; `landlock` sandboxes every agent and throws when it
 * cannot. The agent may read system directories, Node's, those of its program and of file
 * arguments, and `sandboxReadPaths`. None of them may hold the data directory: a system
 * directory that does is left out, any other stops startup.
 */
export function planAgentSandbox(setup: SandboxSetup): SandboxPlan {
  // Landlock keeps a root process out of files, not out of other root processes' /proc/<pid>/environ.
  const rootWarning = setup.agentIsRoot
    ? 'the agent runs as root (agent.runAsUser "server" on a root server): it can read the server\'s environment whatever agent.sandbox says; use agent.runAsUser "auto" for untrusted agents'
    : null;
  const unsandboxed = (warning: string | null): SandboxPlan => ({
    sandbox: null,
    reaper: probeReaper(setup.launcher) ? setup.launcher : null,
    warning,
    notes: [],
  });
  if (setup.mode === 'auto' && setup.agentHasOwnUser) return unsandboxed(rootWarning);
  // "off" with a uid of its own is the uid separation alone, as on a root server: nothing to warn of.
  if (setup.mode === 'off')
    return unsandboxed(rootWarning ?? (setup.agentHasOwnUser ? null : unsandboxedWarning('agent.sandbox is "off"')));
  const probe = probeLandlock(setup.launcher);
  if ('error' in probe) {
    if (setup.mode === 'landlock') throw new Error(`agent.sandbox is "landlock" but agents cannot be sandboxed here: ${probe.error}`);
    return unsandboxed(rootWarning ?? unsandboxedWarning(`no Landlock: ${probe.error}`));
  }
  const { dataDir } = setup;
  const files = [setup.program, ...setup.args.filter(isAbsoluteFile)];
  const own = [dirname(process.execPath), ...files.flatMap(fileDirs), ...setup.extraReadPaths];
  for (const path of own) {
    if (isPathInside(path, dataDir) || isPathInside(dataDir, path))
      throw new Error(
        `the sandboxed agent would be allowed to read ${path}, which holds or is inside the data directory (${dataDir}); move the agent program, agent.sandboxReadPaths or the data directory apart`,
      );
  }
  const holdingData = SYSTEM_DIRS.filter((dir) => isPathInside(dir, dataDir));
  const system = SYSTEM_DIRS.filter((dir) => !holdingData.includes(dir));
  const readOnly = [...new Set([...system, ...own.filter((path) => !system.some((dir) => isPathInside(dir, path)))])];
  return {
    sandbox: { launcher: setup.launcher, abi: probe.abi, readOnly, writableDevices: WRITABLE_DEVICES.filter((d) => existsSync(d)) },
    reaper: setup.launcher,
    warning: rootWarning,
    notes: holdingData.map((dir) => `${dir} holds the data directory, so the sandboxed agent may not read it`),
  };
}

/** A file's directory, and its target's when it is a symlink (Landlock checks the real path). */
function fileDirs(file: string | null): string[] {
  if (!file) return [];
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    // Missing by now: the run fails with "could not be started" anyway.
  }
  return [...new Set([dirname(file), dirname(real)])];
}

function isAbsoluteFile(arg: string): boolean {
  try {
    return arg.startsWith('/') && statSync(arg).isFile();
  } catch {
    return false;
  }
}
