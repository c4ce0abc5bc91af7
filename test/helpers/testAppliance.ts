import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { configSchema, type Config } from '../../src/config/schema.js';
import { systemClock, type Clock } from '../../src/platform/Clock.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { startAppliance, type RunningAppliance } from '../../src/app/startAppliance.js';
import { fetchExplained } from './fetchExplained.js';
import { checkAgainstOpenApi } from './openApiConformance.js';

/** Partial config, merged over the defaults (objects merge, arrays replace). */
export type ConfigOverrides = {
  [K in keyof Config]?: Config[K] extends unknown[] ? Config[K] : Config[K] extends object ? Partial<Config[K]> : Config[K];
};

/** Temp directories made by this test file's process; removed when it exits. */
const madeDirs = new Set<string>();
// Each ava test file runs in a process of its own: when it ends, whatever its tests made goes,
// even when a test forgot its teardown or failed before reaching it (data directories hold keys).
process.once('exit', () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp directory owned by one test; removed at the latest when the test file's process exits. */
export async function makeTempDir(prefix = 'enclave-test-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  madeDirs.add(dir);
  return dir;
}

/** A validated config on `dataDir`, port 0, silent logs, plus overrides. */
export function makeTestConfig(dataDir: string, overrides: ConfigOverrides = {}): Config {
  const base = loadConfig({ env: { ENCLAVE_DATA_DIR: dataDir, ENCLAVE_PORT: '0', ENCLAVE_LOG_LEVEL: 'silent' } });
  // No spare export worker unless a test asks: each would load the renderer in a process of its
  // own for every appliance a test starts (test/export/spareWorker.int.test.ts covers it).
  const merged: Record<string, unknown> = { ...base, export: { ...base.export, spareWorker: false } };
  for (const [key, value] of Object.entries(overrides)) {
    const prev = merged[key];
    merged[key] =
      value && typeof value === 'object' && !Array.isArray(value) && prev && typeof prev === 'object' ? { ...prev, ...value } : value;
  }
  return configSchema.parse(merged);
}

/** A running appliance for a test, with its first admin key and a JSON fetch helper. */
export interface TestAppliance extends RunningAppliance {
  dataDir: string;
  config: Config;
  key: string;
  /** fetch() against the appliance with the admin key unless `auth: false` or another key. */
  api(path: string, init?: ApiInit): Promise<Response>;
  /** Stops the appliance and deletes its data directory. */
  close(): Promise<void>;
}

/** Options of a test request: `json` becomes the body; `key` overrides (or, as null, drops) the admin key. */
export type ApiInit = RequestInit & { json?: unknown; key?: string | null };

/**
 * fetch() against an appliance at `baseUrl`, sending `defaultKey` unless the request says
 * otherwise; every admin response is checked against the appliance's /openapi.json.
 */
export function applianceFetch(baseUrl: string, defaultKey: string): (path: string, init?: ApiInit) => Promise<Response> {
  return (path, init = {}) => {
    const headers = new Headers(init.headers);
    const useKey = init.key === undefined ? defaultKey : init.key;
    if (useKey) headers.set('Authorization', `Bearer ${useKey}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(init.json);
    }
    const url = new URL(`${baseUrl}${path}`);
    return fetchExplained(url.href, { ...init, headers, body }).then(async (res) => {
      await checkAgainstOpenApi(baseUrl, (init.method ?? 'GET').toUpperCase(), url, res);
      return res;
    });
  };
}

/** Starts a real appliance on 127.0.0.1:0 with a temp data directory. */
export async function startTestAppliance(
  options: { overrides?: ConfigOverrides; clock?: Clock; dataDir?: string; serveSample?: boolean } = {},
): Promise<TestAppliance> {
  const dataDir = options.dataDir ?? (await makeTempDir());
  const config = makeTestConfig(dataDir, options.overrides);
  const running = await startAppliance({
    config,
    logger: createLogger('silent'),
    clock: options.clock ?? systemClock,
    serveSample: options.serveSample ?? false,
  });
  const key = running.createdAdminKey ?? '';
  return {
    ...running,
    dataDir,
    config,
    key,
    api: applianceFetch(running.url, key),
    async close() {
      await running.stop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
