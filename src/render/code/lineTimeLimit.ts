/** Longest time one line may take in the grammar before it is cut short (shiki's default). */
export const DEFAULT_LINE_TIME_LIMIT_MS = 500;

/** The variable that sets the per-line limit for a process and its threads and children; 0 means none. */
export const LINE_TIME_LIMIT_VARIABLE = 'ENCLAVE_CODE_LINE_TIME_LIMIT_MS';

/**
 * The per-line tokenizer time limit for this process. It is a wall-clock limit: a line that hits
 * it comes out as plain text, so on a loaded machine the same page can highlight differently.
 * The test suite sets the variable to 0 (no limit) so that machine load can never change what a
 * test sees; the appliance keeps shiki's default, which stops a pathological grammar from
 * stalling an export. Read from the environment because tokenizers are made in worker threads
 * and export child processes, which inherit it.
 */
export function lineTimeLimitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[LINE_TIME_LIMIT_VARIABLE];
  if (raw === undefined || raw === '') return DEFAULT_LINE_TIME_LIMIT_MS;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : DEFAULT_LINE_TIME_LIMIT_MS;
}
