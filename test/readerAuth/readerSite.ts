import type { ExecutionContext } from 'ava';
import type { ReaderAuthSetting } from '../../src/config/sections/readerAuth.js';
import { type Clock, ManualClock } from '../../src/platform/Clock.js';
import { hashPassword } from '../../src/platform/passwordHash.js';
import { type ConfigOverrides, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';
import { renderFilesAndZip } from '../render/renderFixture.js';
import { READER_ACCESS_SITE } from './readerAccessSite.js';

/** The shared password of the test site. */
export const PASSWORD = 'correct horse battery';

/** An appliance serving the access fixture as docs.example.com with reader sign-in (a password by default), on a clock the test moves; `overrides` for its config. */
export async function startReaderSite(
  t: ExecutionContext,
  auth: ReaderAuthSetting = { mode: 'password', passwordHash: hashPassword(PASSWORD), sessionHours: 2 },
  clock: Clock = new ManualClock('2026-05-01T10:00:00.000Z'),
  files: Record<string, string> = READER_ACCESS_SITE,
  overrides: ConfigOverrides = {},
): Promise<{ app: TestAppliance; clock: Clock }> {
  const app = await startTestAppliance({ clock, overrides });
  t.teardown(() => app.close());
  await installReaderSite(t, app, clock, auth, files);
  return { app, clock };
}

/** Renders `files`, adds them to `app` (running on `clock`) as docs.example.com with reader sign-in `auth`, and makes that version live. */
export async function installReaderSite(
  t: ExecutionContext,
  app: TestAppliance,
  clock: Clock,
  auth: ReaderAuthSetting,
  files: Record<string, string> = READER_ACCESS_SITE,
): Promise<void> {
  const { src, zip } = await renderFilesAndZip(t, files);
  await app.control.sites.upsert({
    domain: 'docs.example.com',
    source: src,
    ref: null,
    projectId: app.projectId,
    createdAt: clock.now().toISOString(),
    auth,
  });
  await app.features.deployments.activateBundleFile(zip, { source: 'test' });
}

/** Signs in with `password` from the site's own origin; the raw answer (no redirect followed). */
export function postSignIn(app: TestAppliance, password: string, returnTo = '/', origin: string = app.url): Promise<Response> {
  return fetch(`${app.url}/_enclave/auth/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
    body: new URLSearchParams({ password, returnTo }).toString(),
  });
}

/** The session cookie (name=value) a sign-in answer set. */
export function sessionCookie(res: Response): string {
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0];
}
