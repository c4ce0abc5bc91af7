import test from 'ava';
import { rm } from 'node:fs/promises';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { FeedbackIdSource } from '../../src/features/feedback/log/FeedbackIdSource.js';
import { FeedbackLog } from '../../src/features/feedback/log/FeedbackLog.js';
import { feedbackIdParts } from '../../src/features/feedback/log/feedbackRecord.js';
import { RecentRecords } from '../../src/features/feedback/log/RecentRecords.js';
import { makeTempDir } from '../helpers/testAppliance.js';

const P = 'proj_recent';

test('recent records forget the least recently used one when full, and a hit counts as use', (t) => {
  const recent = new RecentRecords<string>(2);
  recent.set(0, 10, 'a');
  recent.set(1, 10, 'b');
  t.is(recent.get(0, 10), 'a', 'same offset, other segment: a different line');
  recent.set(0, 20, 'c'); // 'b' is now the least recent
  t.is(recent.get(1, 10), undefined);
  t.is(recent.get(0, 10), 'a');
  t.is(recent.get(0, 20), 'c');
  t.is(recent.size, 2);
  recent.clear();
  t.is(recent.get(0, 10), undefined);
});

test('lines at far offsets of high segment ids keep distinct keys', (t) => {
  const recent = new RecentRecords<number>(10);
  const far = 2 ** 36 - 1;
  recent.set(0xfffe, far, 1);
  recent.set(0xffff, 0, 2);
  recent.set(0xfffe, far - 1, 3);
  t.deepEqual([recent.get(0xfffe, far), recent.get(0xffff, 0), recent.get(0xfffe, far - 1)], [1, 2, 3]);
});

test('ids from the pool are random fb_ ids whose halves are what the index stores', (t) => {
  const source = new FeedbackIdSource();
  const seen = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const { id, idHi, idLo } = source.take();
    t.regex(id, /^fb_[0-9a-f]{16}$/);
    t.deepEqual(feedbackIdParts(id), { idHi, idLo });
    seen.add(id);
  }
  t.is(seen.size, 2000, 'no repeats across pool refills');
});

test('pages served from held records match pages read from disk, with current statuses', async (t) => {
  const dataDir = await makeTempDir('enclave-recent-');
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const open = () => FeedbackLog.open({ dataDir, groupCommitMs: 0, logger: createLogger('silent') });
  const log = await open();
  const subs = [
    { source: 'contextual' as const, path: '/', helpful: false, comment: 'needs <script>alert(1)</script> more', contact: 'r@example.com' },
    { source: 'code_snippet' as const, path: '/guides/start', code: 'npm i\n\u2028', filename: 'a.sh', lang: 'bash' },
    { source: 'thumbs_only' as const, path: '/', helpful: true },
    { source: 'agent' as const, path: '/reference/api' },
  ];
  for (let i = 0; i < 40; i++) await log.append(P, subs[i % subs.length], new Date(Date.UTC(2026, 0, 1 + (i % 3) * 20, 0, i)));
  const first = await log.list(P, {}, null, 100); // new entries are held since their append
  const again = await log.list(P, {}, null, 100); // now all of them come from held records
  t.deepEqual(again, first);
  const changed = first.entries[7];
  await log.setStatus(P, changed.id, 'dismissed', new Date(Date.UTC(2026, 1, 1)));
  const afterChange = await log.list(P, {}, null, 100);
  t.is(afterChange.entries[7].status, 'dismissed', 'status comes from the index, not the held record');
  await log.close();

  const cold = await open();
  t.teardown(() => cold.close());
  t.deepEqual(await cold.list(P, {}, null, 100), afterChange, 'same page from a fresh start that reads every line');
  t.deepEqual(await cold.list(P, {}, null, 100), afterChange, 'and again once those reads are held');
});
