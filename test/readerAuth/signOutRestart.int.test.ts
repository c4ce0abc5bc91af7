import { readFile, rm } from 'node:fs/promises';
import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { hashPassword } from '../../src/platform/passwordHash.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { installReaderSite, PASSWORD, postSignIn, sessionCookie } from './readerSite.js';

const get = (url: string, cookie: string) => fetch(url, { redirect: 'manual', headers: { cookie } });

test('a signed-out cookie stays refused after a restart on the same data directory; one still signed in keeps working', async (t) => {
  const dataDir = await makeTempDir();
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const first = await startTestAppliance({ clock, dataDir });
  let running = true;
  t.teardown(() => (running ? first.close() : undefined));
  await installReaderSite(t, first, clock, { mode: 'password', passwordHash: hashPassword(PASSWORD), sessionHours: 2 });
  const leaving = sessionCookie(await postSignIn(first, PASSWORD));
  const staying = sessionCookie(await postSignIn(first, PASSWORD));
  const out = await fetch(`${first.url}/_enclave/auth/sign-out`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: leaving, Origin: first.url },
  });
  t.is(out.status, 303);
  t.is((await get(`${first.url}/team/notes`, leaving)).status, 302, 'refused at once');
  await first.close();
  running = false;

  const second = await startTestAppliance({ clock, dataDir });
  t.teardown(() => second.close());
  t.is((await get(`${second.url}/team/notes`, staying)).status, 200, 'the keyring and site survived: a live session still opens the page');
  t.is((await get(`${second.url}/team/notes`, leaving)).status, 302, 'the signed-out session is still refused');
  // Past the cookie's own expiry the record is no longer needed: a later sign-out drops it.
  clock.advance(2 * 3_600_000 + 1000);
  const later = sessionCookie(await postSignIn(second, PASSWORD));
  await fetch(`${second.url}/_enclave/auth/sign-out`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: later, Origin: second.url },
  });
  const kept = JSON.parse(await readFile(`${dataDir}/reader-sign-outs.json`, 'utf8')) as { sessions: Record<string, number> };
  t.is(Object.keys(kept.sessions).length, 1, 'expired sign-outs are pruned');
});
