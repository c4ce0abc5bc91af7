import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../src/platform/Clock.js';
import { makeTempDir, type ConfigOverrides } from '../helpers/testAppliance.js';
import { deployAndWait, startLoggedAppliance, type LoggedAppliance } from '../deploy/helpers/loggedAppliance.js';
import { writeBundle } from '../deploy/helpers/testBundles.js';

/** Browser-like user agents (readers) and an AI agent. */
export const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
export const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
export const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot';

/** The real appliance serving the test bundle of docs.test.internal (a site of its project). */
export interface AnalyticsAppliance extends LoggedAppliance {
  /** GET a site path as a client with this user agent ('' sends none). */
  visit(path: string, userAgent: string, method?: string): Promise<number>;
  /** GET /v1/analytics/{projectId}{path} with the admin key, parsed. */
  report<T>(path: string): Promise<T>;
}

/** Starts an appliance (on `dataDir` if given) and deploys a small bundle of pages unless `deploy: false`. */
export async function startAnalyticsAppliance(
  options: { clock?: Clock; overrides?: ConfigOverrides; dataDir?: string; key?: string; deploy?: boolean } = {},
): Promise<AnalyticsAppliance> {
  const source = await makeTempDir('enclave-analytics-src-');
  const app = await startLoggedAppliance({
    clock: options.clock,
    dataDir: options.dataDir,
    key: options.key,
    overrides: {
      sites: [{ domain: 'docs.test.internal', source }],
      analytics: { requestsPerHour: 100_000 },
      ...options.overrides,
    } as ConfigOverrides,
  });
  if (options.deploy !== false) {
    const zip = join(source, 'site.zip');
    await writeBundle(zip, 'v1');
    const record = await deployAndWait(app, { bundleUrl: zip });
    if (record.status !== 'active') throw new Error(`deploy failed: ${JSON.stringify(record)}`);
  }
  return {
    ...app,
    async close() {
      await app.close();
      await rm(source, { recursive: true, force: true });
    },
    async stop() {
      await app.stop();
      await rm(source, { recursive: true, force: true });
    },
    async visit(path, userAgent, method = 'GET') {
      const headers: Record<string, string> = userAgent ? { 'User-Agent': userAgent } : {};
      // fetch() always sends a user agent; '' asks for none at all.
      const res = await fetch(`${app.url}${path}`, { method, headers: userAgent ? headers : { 'User-Agent': '' } });
      await res.arrayBuffer();
      return res.status;
    },
    async report<T>(path: string) {
      const res = await app.api(`/v1/analytics/${app.projectId}${path}`);
      if (res.status !== 200) throw new Error(`${path} → ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    },
  };
}
