import type { ExecutionContext } from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '../../src/platform/Clock.js';
import { startGitHttpServer, type GitHttpServer } from '../helpers/gitHttpServer.js';
import { fetchWithHost } from '../helpers/fetchWithHost.js';
import { type ConfigOverrides, makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { waitUntil } from '../helpers/waitUntil.js';
import { makeDocsRepo, type DocsRepo } from '../git/gitSourceFixture.js';

/**
 * Bound on a wait for an export and deploy: a hang guard, far above the seconds they take on a
 * quiet machine, since each test's appliance exports while other suites load the machine.
 */
export const HANG_GUARD_MS = 300_000;
/** The git-sourced site previews are made of. */
export const DOMAIN = 'docs.preview.test';

/** A docs repository on a real smart-HTTP git server and an appliance whose site follows its `main`. */
export interface PreviewWorld {
  app: TestAppliance;
  repo: DocsRepo;
  server: GitHttpServer;
  dataDir: string;
  /** The site's configuration (to start the appliance again on the same data directory). */
  overrides: ConfigOverrides;
  /** GET/HEAD/POST on the site's Host, redirects not followed. */
  site: typeof fetch;
}

/** Starts the world; `auth` gives the site reader sign-in. The appliance and server close when the test ends. */
export async function previewWorld(
  t: ExecutionContext,
  options: {
    clock?: Clock;
    auth?: { mode: 'password'; password: string };
    hostPattern?: string;
    agent?: (gitUrl: string) => ConfigOverrides['agent'];
  } = {},
): Promise<PreviewWorld> {
  const repo = await makeDocsRepo();
  const server = await startGitHttpServer(repo.root, { basicAuth: { user: 'enclave', password: 'tok-p' } });
  const tokenFile = join(repo.root, 'token');
  await writeFile(tokenFile, 'tok-p\n');
  const dataDir = await makeTempDir('enclave-preview-');
  const overrides: ConfigOverrides = {
    sites: [
      {
        domain: DOMAIN,
        source: { git: `${server.url}/docs.git`, branch: 'main', tokenFile },
        ...(options.auth ? { auth: options.auth } : {}),
      },
    ],
    ...(options.hostPattern
      ? {
          sources: { fetchTimeoutSeconds: 120, previews: { host: options.hostPattern, expireAfterHours: 168, expiryCron: '*/10 * * * *' } },
        }
      : {}),
    ...(options.agent ? { agent: options.agent(server.url.replace('http://', 'http://enclave:tok-p@')) } : {}),
  };
  const app = await startTestAppliance({ overrides, clock: options.clock, dataDir });
  const world: PreviewWorld = { app, repo, server, dataDir, overrides, site: fetchWithHost(DOMAIN) };
  t.teardown(async () => {
    await world.app.close();
    await server.close();
  });
  await waitUntil('the live site from main', async () => app.features.sources.state.site(DOMAIN).liveSha, HANG_GUARD_MS);
  return world;
}

/** Waits until update status `statusId` has ended; its body. */
export function waitForStatus(api: TestAppliance['api'], statusId: string): Promise<Record<string, unknown>> {
  return waitUntil(
    `update ${statusId} to end`,
    async () => {
      const body = (await (await api(`/v1/project/update-status/${statusId}`)).json()) as Record<string, unknown>;
      return body.status === 'success' || body.status === 'failure' ? body : null;
    },
    HANG_GUARD_MS,
  );
}

/** The path part of a preview URL (requests go to 127.0.0.1 with the site's Host). */
export function pathOf(url: string): string {
  return new URL(url).pathname;
}
