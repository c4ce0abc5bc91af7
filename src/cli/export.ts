import { exportProgressPrinter } from './exportProgressPrinter.js';
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { sha256OfFile } from '../platform/sha256OfFile.js';
import { apiClientFromEnv, reportApiFailure, UnreachableError, type ApiClient } from './ApiClient.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { parseVerbArgs } from './parseVerbArgs.js';
import { escapeControls, formatJson } from './escapeControls.js';
import { printJobProblems, type JobProblems } from './printJobProblems.js';
import { transferMeter } from './transferMeter.js';

export const USAGE = `usage:
  enclave export start --domain D [--version V] [--strict] [--ship-warnings] [--keep-remote-assets] [--full] [--wait]
  enclave export status JOB_ID
  enclave export bundle JOB_ID
  enclave export download JOB_ID [--out FILE]

start --wait shows a progress bar on a terminal (plain lines otherwise) and exits 0 when the
job completes, 1 when it fails or completes with pages that did not render (failed pages and
warnings are listed on stderr; status does the same for a finished job). download shows bytes
and rate (a bar on a terminal, plain lines otherwise). download resumes a partial FILE.part with a Range request,
checks the SHA-256 and only then renames it to FILE (exit 1 on a mismatch).
--strict fails the job at the first page that does not render (exit 1 with --wait).
--full renders every page afresh; by default pages whose inputs are unchanged since the site's
last export are reused (a finished job shows how many pages were reused and rendered).
--ship-warnings renders a page whose content had to be dropped (an {expression} that does not
parse) with a warning; by default such a page fails, and deploy refuses the bundle.
--keep-remote-assets keeps remote images, frames, fonts and third-party scripts in the bundle
(by default they are removed and listed in its report, so it never contacts another origin).`;

/** The job fields the CLI reads. */
interface ExportJob extends JobProblems {
  jobId: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  progress: number;
  pageCount: number;
  error?: string;
}

/** The bundle link fields the CLI reads. */
interface BundleLink {
  bundleUrl: string;
  sizeBytes: number;
  sha256: string;
}

/** Polls the job until it is completed or failed, showing progress; prints the final job. */
async function waitForExport(client: ApiClient, io: CliIo, jobId: string): Promise<number> {
  const printer = exportProgressPrinter(io);
  for (;;) {
    const job = await client.request<ExportJob>('GET', `/v1/static-export/jobs/${encodeURIComponent(jobId)}`);
    printer.show(job);
    if (job.status === 'completed' || job.status === 'failed') {
      printer.end();
      io.out.write(`${formatJson(job)}\n`);
      return printJobProblems(io, job) ? ExitCode.failed : ExitCode.ok;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Downloads a bundle to `out` through `out.part`: an existing partial file is continued with a
 * Range request (If-Range pins it to the same zip), the result is checked against the SHA-256
 * the API announced, and only a verified file gets the final name.
 */
async function downloadBundle(io: CliIo, link: BundleLink, out: string): Promise<number> {
  const part = `${out}.part`;
  const have = await stat(part).then(
    (s) => s.size,
    () => 0,
  );
  const headers: Record<string, string> = {};
  if (have > 0 && have < link.sizeBytes) {
    headers.Range = `bytes=${have}-`;
    headers['If-Range'] = `"${link.sha256}"`;
  }
  let response: Response;
  try {
    response = have >= link.sizeBytes ? new Response(null, { status: 416 }) : await fetch(link.bundleUrl, { headers });
  } catch (err) {
    throw new UnreachableError(new URL(link.bundleUrl).origin, (err as { cause?: unknown }).cause ?? err);
  }
  if (response.status === 206) {
    io.err.write(`enclave: resuming at byte ${have} of ${link.sizeBytes}\n`);
  } else if (response.status !== 200 && response.status !== 416) {
    io.err.write(`enclave: download failed: ${response.status} ${escapeControls((await response.text()).slice(0, 200))}\n`);
    return ExitCode.failed;
  }
  if (response.body && response.status !== 416) {
    const start = response.status === 206 ? have : 0;
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream),
      transferMeter(io, { total: link.sizeBytes, start }),
      createWriteStream(part, { flags: response.status === 206 ? 'a' : 'w', mode: 0o600 }),
    );
  }
  const actual = await sha256OfFile(part);
  if (actual !== link.sha256) {
    // A corrupt partial would poison every later resume: drop it.
    await rm(part, { force: true });
    io.err.write(`enclave: sha256 mismatch: expected ${escapeControls(link.sha256)}, got ${actual}; the download was discarded\n`);
    return ExitCode.failed;
  }
  await rename(part, out);
  io.out.write(`${formatJson({ file: out, sizeBytes: link.sizeBytes, sha256: actual }, null)}\n`);
  return ExitCode.ok;
}

/** `enclave export start|status|bundle|download` against the local API. */
export async function runExport(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  const parsed = parseVerbArgs(io, 'export', USAGE, rest, {
    domain: { type: 'string' },
    version: { type: 'string' },
    strict: { type: 'boolean' },
    'ship-warnings': { type: 'boolean' },
    'keep-remote-assets': { type: 'boolean' },
    full: { type: 'boolean' },
    wait: { type: 'boolean', default: false },
    out: { type: 'string' },
  });
  if (!parsed.ok) return parsed.code;
  const { values, positionals, usage } = parsed;
  if (!['start', 'status', 'bundle', 'download'].includes(action ?? ''))
    return usage(action ? `unknown action '${action}'` : 'missing action');
  if (action === 'start' && (!values.domain || positionals.length > 0)) return usage('start takes --domain and no positional arguments');
  if (action !== 'start' && positionals.length !== 1) return usage(`${action} takes exactly one job id`);

  const client = apiClientFromEnv(io);
  if (!client) return ExitCode.usage;
  try {
    if (action === 'start') {
      const job = await client.request<ExportJob>('POST', '/v1/static-export/jobs', {
        domain: values.domain,
        version: values.version,
        strict: values.strict,
        keepRemoteAssets: values['keep-remote-assets'],
        shipWarnings: values['ship-warnings'],
        full: values.full,
      });
      if (!values.wait) {
        io.out.write(`${formatJson(job)}\n`);
        return ExitCode.ok;
      }
      io.err.write(`enclave: export ${escapeControls(job.jobId)} queued\n`);
      return await waitForExport(client, io, job.jobId);
    }
    const jobPath = `/v1/static-export/jobs/${encodeURIComponent(positionals[0])}`;
    if (action === 'status') {
      const job = await client.request<ExportJob>('GET', jobPath);
      io.out.write(`${formatJson(job)}\n`);
      return printJobProblems(io, job) ? ExitCode.failed : ExitCode.ok;
    }
    const link = await client.request<BundleLink>('POST', `${jobPath}/bundle`);
    if (action === 'bundle') {
      io.out.write(`${formatJson(link)}\n`);
      return ExitCode.ok;
    }
    return await downloadBundle(io, link, values.out ?? basename(new URL(link.bundleUrl).pathname));
  } catch (err) {
    return reportApiFailure(io, err);
  }
}
