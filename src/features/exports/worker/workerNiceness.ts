/** The appliance's niceness for export workers. */
export const DEFAULT_WORKER_NICENESS = 10;

/** The variable that overrides it for a process and the workers it starts. */
export const WORKER_NICENESS_VARIABLE = 'ENCLAVE_EXPORT_WORKER_NICENESS';

/**
 * Scheduling niceness of export workers. An export is background work; admin scripts and
 * readers talking to the API must not wait behind it when the cores are busy, and on an idle
 * machine the worker still gets all the CPU it can use. The test suite sets 0: beside CPU hogs
 * a niceness-10 worker gets a few percent of a core, and tests would wait on machine load
 * instead of on the code (the tests of the lowering itself set 10 again).
 */
export function workerNiceness(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[WORKER_NICENESS_VARIABLE];
  if (raw === undefined || raw === '') return DEFAULT_WORKER_NICENESS;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 && value <= 19 ? value : DEFAULT_WORKER_NICENESS;
}
