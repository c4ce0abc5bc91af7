import { open } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AgentRuntime } from './AgentRuntime.js';

/** Most bytes read from the log in one step. */
const CHUNK = 64 * 1024;

/** What the log holds from `offset` on (nothing when it is not there yet), and where that ends. */
async function readFrom(path: string, offset: number): Promise<{ chunks: Buffer[]; end: number }> {
  const handle = await open(path, 'r').catch(() => null);
  if (!handle) return { chunks: [], end: offset };
  try {
    const { size } = await handle.stat();
    const chunks: Buffer[] = [];
    // A follow-up run starts the log afresh: read it from its start again.
    let at = size < offset ? 0 : offset;
    while (at < size) {
      const want = Math.min(CHUNK, size - at);
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(want), 0, want, at);
      if (bytesRead === 0) break;
      chunks.push(buffer.subarray(0, bytesRead));
      at += bytesRead;
    }
    return { chunks, end: at };
  } finally {
    await handle.close();
  }
}

/**
 * The run's messages as they are written: the job's log (agent output and the appliance's
 * git steps, credentials already redacted), followed until the job is no longer `active`,
 * then one closing line with the outcome. `pollMs` is how often the log is looked at.
 */
export async function* streamAgentRun(
  runtime: Pick<AgentRuntime, 'store' | 'paths'>,
  projectId: string,
  jobId: string,
  pollMs: number,
): AsyncGenerator<Buffer> {
  const path = runtime.paths.log(jobId);
  let offset = 0;
  for (;;) {
    const job = runtime.store.find(projectId, jobId);
    const finished = job?.status !== 'active';
    // Read after looking at the status: a finished job's log is complete by then.
    const read = await readFrom(path, offset);
    offset = read.end;
    yield* read.chunks;
    if (finished) {
      const outcome = job ? `${job.status}${job.error ? `: ${job.error}` : ''}${job.prLink ? ` (${job.prLink})` : ''}` : 'gone';
      yield Buffer.from(`\n# job ${jobId} ${outcome}\n`);
      return;
    }
    await sleep(pollMs);
  }
}
