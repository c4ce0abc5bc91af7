import { spawn, type ChildProcess } from 'node:child_process';
import { LINE_TIME_LIMIT_VARIABLE } from '../../src/render/code/lineTimeLimit.js';
import { nodeScriptArgs } from './nodeScriptArgs.js';
import { projectRoot } from './projectRoot.js';

export { projectRoot };

/**
 * Node's arguments for `src/main.ts` (the `npm start` entry), or for its compiled twin when the
 * suite runs compiled (see nodeScriptArgs).
 */
export function applianceMainArgs(): string[] {
  return nodeScriptArgs(new URL('../../src/main.ts', import.meta.url));
}

/**
 * What every appliance a test starts in a process of its own inherits: PATH, HOME, and the code
 * tokenizer's per-line time limit of the test run (none: see src/render/code/lineTimeLimit.ts),
 * so that machine load can't change what a spawned appliance renders either. No spare export
 * worker, as in the in-process appliances (testAppliance.ts): each would load the renderer and
 * warm grammars in a process of its own, for nothing (test/export/spareWorker.int covers it).
 */
export function childBaseEnv(): Record<string, string> {
  const limit = process.env[LINE_TIME_LIMIT_VARIABLE];
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    ENCLAVE_EXPORT__SPARE_WORKER: 'false',
    ...(limit === undefined ? {} : { [LINE_TIME_LIMIT_VARIABLE]: limit }),
  };
}

/** A real `enclave serve` in a child process. */
export interface SpawnedAppliance {
  child: ChildProcess;
  url: string;
  /** Everything the process printed on stdout so far (admin key lines on first start). */
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process ends. */
  exited: Promise<number | string>;
}

/**
 * Starts `src/main.ts` (the `npm start` entry) with the given environment on port 0 and
 * resolves once it prints its URL. Rejects if it exits first or takes longer than `timeoutMs`.
 * `as` runs it as another user (the tests run as root; the image's server is uid 10001).
 */
export function spawnAppliance(
  env: Record<string, string>,
  timeoutMs = 90_000,
  as: { uid?: number; gid?: number } = {},
): Promise<SpawnedAppliance> {
  const child = spawn(process.execPath, applianceMainArgs(), {
    cwd: projectRoot,
    ...as,
    env: { ...childBaseEnv(), ENCLAVE_PORT: '0', ENCLAVE_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`appliance did not start in ${timeoutMs} ms\n${err}`));
    }, timeoutMs);
    const onData = () => {
      const m = /Enclave (http:\/\/[^\s]+) /.exec(err);
      if (m) {
        clearTimeout(timer);
        child.stderr!.off('data', onData);
        resolve({ child, url: m[1], stdout: () => out, stderr: () => err, exited });
      }
    };
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`appliance exited (${code}) before listening\n${err}`));
    });
  });
}

/** Runs `src/main.ts` expecting it to fail at startup; resolves with its exit code and stderr. */
export function runApplianceExpectingFailure(
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<{ code: number | string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, applianceMainArgs(), {
      cwd: projectRoot,
      env: { ...childBaseEnv(), ENCLAVE_PORT: '0', ENCLAVE_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`appliance kept running; expected a startup failure\n${err}`));
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, stderr: err });
    });
  });
}
