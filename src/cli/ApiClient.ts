import { ExitCode, type CliIo } from './CliIo.js';
import { escapeControls } from './escapeControls.js';

/** The API answered with an error status; `body` is the spec's `{error, details?}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { error?: string; details?: { message: string }[] } | null,
  ) {
    // Each server-provided piece is escaped on its own, so the server can't fake extra lines either.
    const details = Array.isArray(body?.details) ? body.details.map((d) => `\n  - ${escapeControls(String(d?.message))}`).join('') : '';
    super(`${status}: ${escapeControls(String(body?.error ?? 'request failed'))}${details}`);
    this.name = 'ApiError';
  }
}

/** The server could not be reached at all. */
export class UnreachableError extends Error {
  constructor(url: string, cause: unknown) {
    super(
      `cannot reach Enclave at ${url} (${(cause as Error)?.message ?? cause}); is it running? Set ENCLAVE_URL if it listens elsewhere.`,
    );
    this.name = 'UnreachableError';
  }
}

/** A small JSON client for the local admin API, shared by every API verb of the CLI. */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly key: string,
    readonly projectId: string | null,
  ) {}

  /** Sends a request and returns the parsed JSON body; throws ApiError for 4xx/5xx. */
  async request<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.raw(
      method,
      path,
      body === undefined ? undefined : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
    );
    const text = await response.text();
    const parsed = text ? safeJson(text) : null;
    if (!response.ok) throw new ApiError(response.status, parsed as ApiError['body']);
    return parsed as T;
  }

  /** Sends a request with the admin key and returns the raw response (downloads). */
  async raw(method: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Response> {
    const url = new URL(path, this.baseUrl).toString();
    try {
      return await fetch(url, { method, body: init.body, headers: { Authorization: `Bearer ${this.key}`, ...init.headers } });
    } catch (err) {
      throw new UnreachableError(this.baseUrl, (err as { cause?: unknown }).cause ?? err);
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: text.slice(0, 200) };
  }
}

/** Builds the client from ENCLAVE_URL / ENCLAVE_ADMIN_KEY / ENCLAVE_PROJECT_ID, or explains what is missing. */
export function apiClientFromEnv(io: CliIo): ApiClient | null {
  const key = io.env.ENCLAVE_ADMIN_KEY;
  if (!key) {
    io.err.write('ENCLAVE_ADMIN_KEY is not set (it was printed on first start, or create one with `enclave keys create`).\n');
    return null;
  }
  return new ApiClient(io.env.ENCLAVE_URL ?? 'http://127.0.0.1:8080', key, io.env.ENCLAVE_PROJECT_ID ?? null);
}

/** Prints an error from an API verb and maps it to the shared exit codes. */
export function reportApiFailure(io: CliIo, err: unknown): number {
  if (err instanceof ApiError) {
    io.err.write(`enclave: ${err.message}\n`);
    return ExitCode.apiError;
  }
  if (err instanceof UnreachableError) {
    io.err.write(`enclave: ${escapeControls(err.message)}\n`);
    return ExitCode.unreachable;
  }
  throw err;
}
