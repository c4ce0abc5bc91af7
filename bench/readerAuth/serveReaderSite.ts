import type { ExecutionContext } from 'ava';
import { createInterface } from 'node:readline';
import { hashPassword } from '../../src/platform/passwordHash.js';
import { READER_ACCESS_SITE } from '../../test/readerAuth/readerAccessSite.js';
import { startTestAppliance } from '../../test/helpers/testAppliance.js';
import { renderFilesAndZip } from '../../test/render/renderFixture.js';

/** The line the child prints once it serves: where, and a signed-in reader's Cookie header. */
export interface ReaderSiteReady {
  url: string;
  cookie: string;
}

/**
 * The child process of bench:reader-auth: renders the reader access fixture, starts an
 * appliance with it live on a site with a password, signs a reader in, prints a ReaderSiteReady
 * line, then answers one JSON line per command line from the parent: `off` / `on` (switch the
 * site's sign-in, as /v1/sites would), `cpu` (this process's CPU time so far, µs), `stop`.
 * It runs apart from the load generator so that the two never share a thread or its CPU time.
 */
export async function serveReaderSite(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const suite = { teardown: (fn: () => Promise<void>) => void cleanups.push(fn) } as unknown as ExecutionContext;
  const { src, zip } = await renderFilesAndZip(suite, READER_ACCESS_SITE);
  const app = await startTestAppliance();
  const site = { domain: 'docs.example.com', source: src, ref: null, projectId: app.projectId, createdAt: new Date().toISOString() };
  const password = 'bench password 1';
  const on = { ...site, auth: { mode: 'password' as const, passwordHash: hashPassword(password) } };
  await app.control.sites.upsert(on);
  await app.features.deployments.activateBundleFile(zip, { source: 'bench' });
  const signIn = await fetch(`${app.url}/_enclave/auth/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password, returnTo: '/' }).toString(),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
  if (!cookie.startsWith('enclave_reader=')) throw new Error(`sign-in gave no session cookie (status ${signIn.status})`);
  const ready: ReaderSiteReady = { url: app.url, cookie };
  process.stdout.write(`${JSON.stringify(ready)}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    if (line === 'stop') break;
    if (line === 'off') await app.control.sites.upsert(site);
    else if (line === 'on') await app.control.sites.upsert(on);
    const usage = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpuMicros: usage.user + usage.system })}\n`);
  }
  await app.close();
  for (const fn of cleanups.reverse()) await fn();
  process.exit(0);
}
