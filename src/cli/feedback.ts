import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { ApiError, apiClientFromEnv, reportApiFailure, type ApiClient } from './ApiClient.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { formatTable } from './printTable.js';
import type { FeedbackPageBody } from '../features/feedback/routes/presentFeedback.js';
import { escapeControls, formatJson } from './escapeControls.js';

export const USAGE = `usage:
  enclave feedback list   [--domain SITE] [--from D] [--to D] [--source S] [--status a,b] [--limit N] [--cursor C] [--json] [--project ID]
  enclave feedback export --format jsonl|csv [--out FILE] [--domain SITE] [--from D] [--to D] [--source S] [--status a,b] [--project ID]

Dates are YYYY-MM-DD (UTC midnight) or ISO 8601; --to is exclusive. --domain keeps one site's
feedback (default: every site of the project); the site of each entry is its domain field.
`;

const FILTER_OPTIONS = {
  domain: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  source: { type: 'string' },
  status: { type: 'string' },
  project: { type: 'string' },
} as const;

type Page = FeedbackPageBody;

const CSV_COLUMNS = [
  'id',
  'createdAt',
  'source',
  'status',
  'path',
  'helpful',
  'comment',
  'contact',
  'code',
  'filename',
  'lang',
  'domain',
] as const;
const MAX_RATE_LIMIT_WAITS = 10;

/** `enclave feedback list|export`: reads the analytics API, following cursors for exports. */
export async function runFeedback(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'list' && action !== 'export') {
    io.err.write(USAGE);
    return action === '--help' || action === '-h' ? ExitCode.ok : ExitCode.usage;
  }
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: rest,
      options:
        action === 'list'
          ? { ...FILTER_OPTIONS, limit: { type: 'string' }, cursor: { type: 'string' }, json: { type: 'boolean' } }
          : { ...FILTER_OPTIONS, format: { type: 'string' }, out: { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }).values as Record<string, string | boolean | undefined>;
  } catch (err) {
    io.err.write(`enclave feedback: ${(err as Error).message}\n${USAGE}`);
    return ExitCode.usage;
  }
  if (action === 'export' && values.format !== 'jsonl' && values.format !== 'csv') {
    io.err.write(`enclave feedback export: --format jsonl or --format csv is required\n`);
    return ExitCode.usage;
  }
  const client = apiClientFromEnv(io);
  if (!client) return ExitCode.usage;
  const projectId = (values.project as string | undefined) ?? client.projectId;
  if (!projectId) {
    io.err.write('enclave feedback: set ENCLAVE_PROJECT_ID or pass --project\n');
    return ExitCode.usage;
  }
  const query = new URLSearchParams();
  for (const [flag, param] of [
    ['domain', 'domain'],
    ['from', 'dateFrom'],
    ['to', 'dateTo'],
    ['source', 'source'],
    ['status', 'status'],
    ['limit', 'limit'],
    ['cursor', 'cursor'],
  ] as const) {
    if (typeof values[flag] === 'string') query.set(param, values[flag] as string);
  }
  const base = `/v1/analytics/${encodeURIComponent(projectId)}/feedback`;
  try {
    if (action === 'list') return await list(client, io, base, query, values.json === true);
    return await exportAll(client, io, base, query, values.format as 'jsonl' | 'csv', values.out as string | undefined);
  } catch (err) {
    return reportApiFailure(io, err);
  }
}

async function list(client: ApiClient, io: CliIo, base: string, query: URLSearchParams, json: boolean): Promise<number> {
  const page = await getPage(client, io, `${base}?${query}`);
  if (json) {
    io.out.write(`${formatJson(page)}\n`);
    return ExitCode.ok;
  }
  const rows = page.feedback.map((e) => [
    e.createdAt,
    e.id,
    e.source,
    e.status,
    printable(e.domain ?? '', 40),
    printable(e.path, 40),
    e.helpful == null ? null : e.helpful ? 'yes' : 'no',
    printable(e.comment ?? '', 60),
  ]);
  io.out.write(formatTable(['CREATED', 'ID', 'SOURCE', 'STATUS', 'SITE', 'PATH', 'HELPFUL', 'COMMENT'], rows));
  if (page.nextCursor) io.err.write(`more entries: add --cursor ${escapeControls(page.nextCursor)}\n`);
  return ExitCode.ok;
}

async function exportAll(
  client: ApiClient,
  io: CliIo,
  base: string,
  query: URLSearchParams,
  format: 'jsonl' | 'csv',
  out: string | undefined,
): Promise<number> {
  const sink = out ? createWriteStream(out, { mode: 0o600 }) : io.out;
  const write = (text: string) => new Promise<void>((resolve, reject) => sink.write(text, (err) => (err ? reject(err) : resolve())));
  let count = 0;
  try {
    if (format === 'csv') await write(`${CSV_COLUMNS.join(',')}\r\n`);
    query.set('limit', '100');
    // Bounded by the data: every page moves the keyset cursor strictly forward.
    for (let pages = 0; pages < 1_000_000; pages++) {
      const page = await getPage(client, io, `${base}?${query}`);
      const text = page.feedback
        .map((e) => (format === 'jsonl' ? `${formatJson(e, null)}\n` : `${CSV_COLUMNS.map((c) => csvCell(e[c])).join(',')}\r\n`))
        .join('');
      if (text) await write(text);
      count += page.feedback.length;
      io.err.write(`\rexported ${count} entries`);
      if (!page.nextCursor) break;
      query.set('cursor', page.nextCursor);
    }
    io.err.write(`\rexported ${count} entries${out ? ` to ${out}` : ''}\n`);
  } catch (err) {
    io.err.write('\n');
    if (out) {
      sink.end();
      await rm(out, { force: true });
    }
    throw err;
  }
  if (out) {
    await new Promise<void>((resolve, reject) => {
      sink.once('error', reject);
      sink.end(() => resolve());
    });
  }
  return ExitCode.ok;
}

/** GET one page, waiting out 429s for the `Retry-After` the server names (a bounded number of times). */
async function getPage(client: ApiClient, io: CliIo, path: string): Promise<Page> {
  for (let attempt = 0; ; attempt++) {
    const res = await client.raw('GET', path);
    const text = await res.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { error: text.slice(0, 200) };
    }
    if (res.ok) return body as Page;
    if (res.status === 429 && attempt < MAX_RATE_LIMIT_WAITS) {
      const seconds = Math.min(3600, Math.max(1, Number(res.headers.get('retry-after')) || 60));
      io.err.write(`\nrate limited; waiting ${seconds}s as the server asks\n`);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    throw new ApiError(res.status, body as ApiError['body']);
  }
}

/** Shows stored text safely in a terminal: control characters (escape sequences) are made visible. */
function printable(text: string, max: number): string {
  const safe = escapeControls(text);
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}

/** RFC 4180 quoting; a leading = + - @ is defused so a spreadsheet shows the text instead of running a formula. */
function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  // Reader comments are untrusted: an escape sequence in a cell would act on whoever `cat`s the file.
  let text = escapeControls(String(value), { keepNewlines: true });
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
