import { pino } from 'pino';
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { systemClock, type Clock } from '../../../src/platform/Clock.js';
import { startAppliance, type RunningAppliance } from '../../../src/app/startAppliance.js';
import { applianceFetch, makeTempDir, makeTestConfig, type ApiInit, type ConfigOverrides } from '../../helpers/testAppliance.js';
import { fetchExplained } from '../../helpers/fetchExplained.js';

/** A running appliance whose log lines are captured for assertions. */
export interface LoggedAppliance extends RunningAppliance {
  dataDir: string;
  key: string;
  logs: { level: number; msg: string; [k: string]: unknown }[];
  api(path: string, init?: ApiInit): Promise<Response>;
  /** Stops the appliance (the data directory stays, for restarts). */
  stop(): Promise<void>;
  /** Stops it and deletes the data directory. */
  close(): Promise<void>;
}

/** Starts the real appliance on a (new or given) data directory, capturing its JSON logs. */
export async function startLoggedAppliance(
  options: { dataDir?: string; overrides?: ConfigOverrides; clock?: Clock; key?: string } = {},
): Promise<LoggedAppliance> {
  const dataDir = options.dataDir ?? (await makeTempDir('enclave-deploy-'));
  const config = makeTestConfig(dataDir, { logLevel: 'info', ...options.overrides });
  const logs: LoggedAppliance['logs'] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  const running = await startAppliance({ config, logger, clock: options.clock ?? systemClock, serveSample: false });
  const key = running.createdAdminKey ?? options.key ?? '';
  return {
    ...running,
    dataDir,
    key,
    logs,
    api: applianceFetch(running.url, key),
    async close() {
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Status, headers and exact bytes of each path, for before/after comparisons. */
export async function snapshotSite(
  baseUrl: string,
  paths: string[],
): Promise<Record<string, { status: number; etag: string | null; body: string }>> {
  const out: Record<string, { status: number; etag: string | null; body: string }> = {};
  for (const path of paths) {
    const res = await fetchExplained(`${baseUrl}${path}`, { headers: { 'Accept-Encoding': 'identity' } });
    out[path] = { status: res.status, etag: res.headers.get('etag'), body: Buffer.from(await res.arrayBuffer()).toString('base64') };
  }
  return out;
}

/**
 * POST /v1/deployments and, when the API answers 202 (a loaded machine can push an activation
 * past its 10 s wait), poll until the deployment finishes. Resolves with the final record, or
 * `{status: 'failed', error}` for a 422.
 */
export async function deployAndWait(
  app: Pick<LoggedAppliance, 'api'>,
  json: { bundleUrl: string; version?: string; domain?: string; label?: string; allowFailed?: boolean },
): Promise<{ status: string; id?: string; version?: string; error?: string | null }> {
  const res = await app.api('/v1/deployments', { method: 'POST', json });
  const body = await res.json();
  if (res.status === 422) return { status: 'failed', error: body.error, id: body.deploymentId };
  if (res.status !== 200 && res.status !== 202) throw new Error(`POST /v1/deployments → ${res.status}: ${JSON.stringify(body)}`);
  let record = body;
  for (let i = 0; record.status === 'running' && i < 1200; i++) {
    await new Promise((r) => setTimeout(r, 100));
    record = await (await app.api(`/v1/deployments/${record.id}`)).json();
  }
  return record;
}

/** A request to `url` with another Host header (fetch() may not set Host): status, headers and body text. */
export function requestWithHost(
  url: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: { ...init.headers, Host: host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** GET `url` with another Host header. */
export function getWithHost(url: string, host: string, headers: Record<string, string> = {}): ReturnType<typeof requestWithHost> {
  return requestWithHost(url, host, { headers });
}
