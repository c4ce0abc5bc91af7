import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { childBaseEnv, projectRoot } from './spawnAppliance.js';

/** What a finished `enclave` process printed and returned. */
export interface EnclaveRun {
  code: number | string;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `bin/enclave.js` with exactly `env` (plus PATH and HOME) and collects its output;
 * rejects if it runs longer than `timeoutMs`.
 */
export function runEnclave(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<EnclaveRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(projectRoot, 'bin', 'enclave.js'), ...args], {
      cwd: projectRoot,
      env: { ...childBaseEnv(), ENCLAVE_LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`enclave ${args.join(' ')} ran longer than ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, stdout, stderr });
    });
  });
}
