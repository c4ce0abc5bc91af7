/**
 * Polls `probe` every 50 ms until it returns a value; throws with `what` on timeout. The bound
 * only stops a hang: it sits under ava's 3-minute test timeout, far above any wait on an idle
 * machine, so that CPU hogs beside the suite slow a test down instead of failing it.
 */
export async function waitUntil<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 150_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** True while a process with this id exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
