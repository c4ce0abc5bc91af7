import { apiClientFromEnv, reportApiFailure, type ApiClient } from './ApiClient.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { parseDuration } from './parseDuration.js';
import { parseVerbArgs } from './parseVerbArgs.js';
import { escapeControls, formatJson } from './escapeControls.js';

export const USAGE = `usage:
  enclave agent create --prompt TEXT|- [--repository R] [--ref REF] [--model M] [--wait [--timeout S]]
  enclave agent get ID
  enclave agent wait ID [--timeout S]

--prompt - reads the prompt from stdin. --timeout takes seconds or a duration (90s, 15m, 2h);
the default is to wait as long as it takes. The project comes from ENCLAVE_PROJECT_ID.
Exit codes of wait (and create --wait): 0 completed (or archived), 1 failed, 124 still active
at the timeout, 3 API refused, 4 server unreachable.`;

/** `wait` gave up while the job was still running (the same code as coreutils' timeout). */
const WAIT_TIMED_OUT = 124;

/** The job fields the CLI reads. */
interface AgentJob {
  id: string;
  status: 'active' | 'completed' | 'archived' | 'failed';
  error?: string;
}

/** Seconds (`90`) or a duration (`15m`) to milliseconds; null when malformed. */
function parseTimeout(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  return parseDuration(text);
}

async function readStdin(io: CliIo): Promise<string> {
  if (!io.stdin) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Polls the job until it leaves `active` or `timeoutMs` passes; prints it as JSON and maps
 * its status to the exit code. Polls back off from 0.5 s to 5 s so a long run costs little.
 */
async function waitForJob(client: ApiClient, io: CliIo, path: string, timeoutMs: number | null): Promise<number> {
  const deadline = timeoutMs === null ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  let delay = 500;
  for (;;) {
    const job = await client.request<AgentJob>('GET', path);
    if (job.status !== 'active' || Date.now() >= deadline) {
      io.out.write(`${formatJson(job)}\n`);
      if (job.status === 'active') {
        io.err.write(`enclave: job ${job.id} is still active after the timeout\n`);
        return WAIT_TIMED_OUT;
      }
      if (job.status === 'failed')
        io.err.write(`enclave: job ${escapeControls(job.id)} failed: ${escapeControls(job.error ?? 'unknown reason')}\n`);
      return job.status === 'failed' ? ExitCode.failed : ExitCode.ok;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, deadline - Date.now()))));
    delay = Math.min(5000, Math.round(delay * 1.5));
  }
}

/** `enclave agent create|get|wait` against the local API. */
export async function runAgent(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  const parsed = parseVerbArgs(io, 'agent', USAGE, rest, {
    prompt: { type: 'string' },
    repository: { type: 'string' },
    ref: { type: 'string' },
    model: { type: 'string' },
    wait: { type: 'boolean', default: false },
    timeout: { type: 'string' },
  });
  if (!parsed.ok) return parsed.code;
  const { values, positionals, usage } = parsed;
  if (action !== 'create' && action !== 'get' && action !== 'wait') return usage(action ? `unknown action '${action}'` : 'missing action');
  if (action === 'create' && (positionals.length > 0 || !values.prompt)) return usage('create takes --prompt and no positional arguments');
  if (action !== 'create' && positionals.length !== 1) return usage(`${action} takes exactly one job id`);
  const timeoutMs = values.timeout === undefined ? null : parseTimeout(values.timeout);
  if (values.timeout !== undefined && timeoutMs === null) return usage('--timeout takes seconds or a duration such as 90s, 15m or 2h');

  const client = apiClientFromEnv(io);
  if (!client) return ExitCode.usage;
  if (!client.projectId) return usage('ENCLAVE_PROJECT_ID is not set');
  const base = `/v2/agent/${encodeURIComponent(client.projectId)}`;

  try {
    if (action === 'create') {
      const prompt = values.prompt === '-' ? await readStdin(io) : values.prompt!;
      const source = values.repository || values.ref ? { repository: values.repository, ref: values.ref } : undefined;
      const job = await client.request<AgentJob>('POST', `${base}/job`, { prompt, source, model: values.model });
      if (!values.wait) {
        io.out.write(`${formatJson(job)}\n`);
        return ExitCode.ok;
      }
      io.err.write(`enclave: job ${job.id} started; waiting for it to finish\n`);
      return await waitForJob(client, io, `${base}/job/${job.id}`, timeoutMs);
    }
    const path = `${base}/job/${encodeURIComponent(positionals[0])}`;
    if (action === 'get') {
      io.out.write(`${formatJson(await client.request('GET', path))}\n`);
      return ExitCode.ok;
    }
    return await waitForJob(client, io, path, timeoutMs);
  } catch (err) {
    return reportApiFailure(io, err);
  }
}
