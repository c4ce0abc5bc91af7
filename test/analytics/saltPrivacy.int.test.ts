import test from 'ava';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ManualClock } from '../../src/platform/Clock.js';
import { CHROME, FIREFOX, startAnalyticsAppliance } from './analyticsAppliance.js';

// Issue 28 item 11: with the salt file in the data directory, a /16 × 4 User-Agents was
// searched in about a second and the day's visitors traced to address + User-Agent. The salt
// now lives in memory only; this test plays the attacker who copied the data directory.

/** Every file under `dir`, as text. */
async function allFiles(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const text = await readFile(join(entry.parentPath, entry.name), 'latin1').catch(() => null);
    if (text !== null) out.set(join(entry.parentPath, entry.name), text);
  }
  return out;
}

const hashWith = (salt: string, address: string, ua: string) =>
  createHash('sha256').update(salt).update(address).update('\n').update(ua).digest('hex').slice(0, 16);

test('an attacker with the data directory (during the day and after a restart) finds no salt to test address + User-Agent guesses against', async (t) => {
  const clock = new ManualClock('2026-03-01T10:00:00Z');
  const app = await startAnalyticsAppliance({ clock });
  await app.visit('/', CHROME);
  await app.visit('/guides/start', FIREFOX);
  const salt = app.features.analytics.salt;
  const snapshot = async () => {
    await app.features.analytics.log.flush();
    return allFiles(app.dataDir);
  };
  let files = await snapshot();
  const events = [...files]
    .filter(([path]) => path.endsWith('.jsonl') && path.includes('analytics'))
    .flatMap(([, text]) => text.trim().split('\n'))
    .map((line) => JSON.parse(line) as { h: string });
  const stored = new Set(events.map((e) => e.h));
  t.is(stored.size, 2);
  // Control: the stored ids really are the readers' (so the search below could succeed).
  const address = ['127.0.0.1', '::ffff:127.0.0.1', '::1'].find((a) => stored.has(salt.visitorOf(a, CHROME)));
  t.truthy(address, 'the stored id is the salted hash of the reader');

  await app.stop();
  // A salt file an older version left behind is deleted at start.
  await writeFile(join(app.dataDir, 'analytics', 'visitor-salt.json'), JSON.stringify({ day: '2026-03-01', salt: 'ab'.repeat(32) }));
  const again = await startAnalyticsAppliance({ clock, dataDir: app.dataDir, key: app.key, deploy: false });
  t.teardown(() => again.close());
  await again.visit('/', CHROME);
  await again.features.analytics.log.flush();
  t.not(
    again.features.analytics.salt.visitorOf(address ?? '', CHROME),
    salt.visitorOf(address ?? '', CHROME),
    'a restart draws a new salt',
  );
  files = await allFiles(again.dataDir);

  // The attack: every 64-hex-digit string anywhere in the data directory is a candidate salt.
  const candidates = new Set<string>();
  for (const text of files.values()) for (const m of text.matchAll(/[0-9a-f]{64}/g)) candidates.add(m[0]);
  let tried = 0;
  for (const candidate of candidates)
    for (const ua of [CHROME, FIREFOX]) {
      tried++;
      t.false(stored.has(hashWith(candidate, address ?? '', ua)), 'a reader traced from the data directory');
    }
  t.log(`${candidates.size} candidate salts tried (${tried} guesses); none reproduced a stored visitor id`);
  t.false(
    [...files.keys()].some((path) => path.endsWith('visitor-salt.json')),
    'no salt file (an old one was deleted at start)',
  );
});
