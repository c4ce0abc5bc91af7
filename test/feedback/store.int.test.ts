import test from 'ava';
import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { FeedbackLog } from '../../src/features/feedback/log/FeedbackLog.js';
import { StoreFileError } from '../../src/platform/store/StoreFileError.js';
import { makeTempDir } from '../helpers/testAppliance.js';
import { startFeedbackHarness } from './feedbackHarness.js';

const silent = createLogger('silent');
const P = 'proj_test';
const thumbs = (helpful = true) => ({ source: 'thumbs_only' as const, path: '/', helpful });

async function tempLog(t: { teardown: (fn: () => unknown) => void }, dataDir?: string): Promise<{ dataDir: string; log: FeedbackLog }> {
  const dir = dataDir ?? (await makeTempDir('enclave-fblog-'));
  if (!dataDir) t.teardown(() => rm(dir, { recursive: true, force: true }));
  const log = await FeedbackLog.open({ dataDir: dir, groupCommitMs: 2, logger: silent });
  return { dataDir: dir, log };
}

async function allIds(log: FeedbackLog, projectId = P): Promise<string[]> {
  return (await log.list(projectId, {}, null, 10_000)).entries.map((e) => e.id);
}

test('segments are JSON Lines per project and month; status changes are appended records', async (t) => {
  const { dataDir, log } = await tempLog(t);
  const a = await log.append(P, thumbs(), new Date('2026-01-31T23:59:59.999Z'));
  const b = await log.append(P, thumbs(false), new Date('2026-02-01T00:00:00.000Z'));
  await log.setStatus(P, a.id, 'resolved', new Date('2026-02-03T00:00:00.000Z'));
  await log.close();
  t.deepEqual((await readdir(join(dataDir, 'feedback', P))).sort(), ['2026-01.jsonl', '2026-02.jsonl']);
  const jan = (await readFile(join(dataDir, 'feedback', P, '2026-01.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.like(jan[0], { type: 'entry', id: a.id, createdAt: '2026-01-31T23:59:59.999Z', source: 'thumbs_only', helpful: true });
  t.deepEqual(jan[1], { type: 'status', id: a.id, status: 'resolved', at: '2026-02-03T00:00:00.000Z' });
  const { log: again } = await tempLog(t, dataDir);
  t.teardown(() => again.close());
  t.deepEqual(await allIds(again), [b.id, a.id]);
  t.is((await again.list(P, { statuses: ['resolved'] }, null, 10)).entries[0].id, a.id);
});

test('a torn last line is dropped and logged, earlier entries stay, later appends parse', async (t) => {
  const { dataDir, log } = await tempLog(t);
  const ids = [];
  for (let i = 0; i < 5; i++) ids.push((await log.append(P, thumbs(), new Date(Date.UTC(2026, 2, 1, 0, i)))).id);
  await log.close();
  const file = join(dataDir, 'feedback', P, '2026-03.jsonl');
  const goodSize = (await stat(file)).size;
  const torn = '{"type":"entry","id":"fb_00000000000000ff","createdAt":"2026-03-0';
  await appendFile(file, torn);
  const lines: string[] = [];
  const logger = createLogger(
    'warn',
    new Writable({
      write: (c, _e, cb) => {
        lines.push(String(c));
        cb();
      },
    }) as never,
  );
  const reopened = await FeedbackLog.open({ dataDir, groupCommitMs: 2, logger });
  t.teardown(() => reopened.close());
  t.is(reopened.stats.droppedBytes, torn.length);
  t.true(
    lines.some((l) => l.includes('torn') && l.includes('2026-03.jsonl')),
    'logged with the file name',
  );
  t.is((await stat(file)).size, goodSize, 'the torn tail was cut off on open');
  t.deepEqual((await allIds(reopened)).reverse(), ids);
  const next = await reopened.append(P, thumbs(), new Date('2026-03-02T00:00:00.000Z'));
  await reopened.close();
  const { log: third } = await tempLog(t, dataDir);
  t.teardown(() => third.close());
  t.deepEqual((await allIds(third)).reverse(), [...ids, next.id]);
});

test('a whole final line that does not parse is dropped like a torn one; damage mid-file stops startup, naming the file and leaving it untouched', async (t) => {
  const { dataDir, log } = await tempLog(t);
  await log.append(P, thumbs(), new Date('2026-03-01T00:00:00.000Z'));
  await log.append(P, thumbs(), new Date('2026-03-01T00:00:01.000Z'));
  await log.close();
  const file = join(dataDir, 'feedback', P, '2026-03.jsonl');
  await appendFile(file, '{"type":"entry","id":"fb_1\n');
  const { log: reopened } = await tempLog(t, dataDir);
  t.is(reopened.count(P), 2);
  await reopened.close();
  const text = await readFile(file, 'utf8');
  t.is(text.split('\n').length, 3, 'the bad last line was cut off');
  // Damage the first record: a bad line followed by good ones is not a torn tail.
  await writeFile(file, `{"type":"entry",garbage}\n${text.split('\n')[1]}\n`);
  const err = await t.throwsAsync(FeedbackLog.open({ dataDir, groupCommitMs: 2, logger: silent }));
  t.true(err instanceof StoreFileError);
  t.true(err!.message.includes(file));
  t.is(await readFile(file, 'utf8'), `{"type":"entry",garbage}\n${text.split('\n')[1]}\n`, 'the damaged file is left untouched');
});

test('entries dated out of order (clock stepped back) are kept in (createdAt, id) order', async (t) => {
  const { log } = await tempLog(t);
  t.teardown(() => log.close());
  const times = ['2026-03-05', '2026-03-01', '2026-03-09', '2026-03-03', '2026-03-03'];
  for (const d of times) await log.append(P, thumbs(), new Date(`${d}T00:00:00.000Z`));
  const entries = (await log.list(P, {}, null, 10)).entries;
  const keys = entries.map((e) => `${e.createdAt} ${e.id}`);
  t.deepEqual(keys, [...keys].sort().reverse());
});

test('retention drops whole monthly segments once every entry is older than retentionDays', async (t) => {
  const h = await startFeedbackHarness({ overrides: { feedback: { retentionDays: 30 } } });
  t.teardown(() => h.close());
  const log = h.module.log;
  const jan = await log.append(h.projectId, thumbs(), new Date('2026-01-15T00:00:00.000Z'));
  const feb = await log.append(h.projectId, thumbs(), new Date('2026-02-27T00:00:00.000Z'));
  const dir = join(h.dataDir, 'feedback', h.projectId);
  // 2026-03-30 minus 30 days = 2026-02-28: January has ended, February hasn't.
  t.deepEqual(await h.module.applyRetention(new Date('2026-03-30T00:00:00.000Z')), [join(dir, '2026-01.jsonl')]);
  t.deepEqual(await readdir(dir), ['2026-02.jsonl']);
  t.deepEqual(await allIds(log, h.projectId), [feb.id]);
  t.is(await log.setStatus(h.projectId, jan.id, 'resolved', new Date()), null);
  t.deepEqual(await h.module.applyRetention(new Date('2026-03-30T00:00:00.000Z')), [], 'idempotent');
  t.deepEqual(await h.module.applyRetention(new Date('2026-03-31T00:00:00.000Z')), [join(dir, '2026-02.jsonl')]);
  // A new month's segment is created again on the next append.
  await log.append(h.projectId, thumbs(), new Date('2026-04-01T00:00:00.000Z'));
  t.is(log.count(h.projectId), 1);
});

function mountTinyTmpfs(dir: string, bytes: number): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

test('disk full: the request fails with 507, the segment is cut back to its last good byte, later appends work', async (t) => {
  const dataDir = await makeTempDir('enclave-fb-full-');
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  // A real full disk: a 64 KiB tmpfs (needs root, as in the project's containers).
  const feedbackDir = join(dataDir, 'feedback');
  await mkdir(feedbackDir);
  if (!mountTinyTmpfs(feedbackDir, 64 * 1024)) {
    t.fail('cannot mount a tmpfs here (needs root); the disk-full path is untested on this machine');
    return;
  }
  t.teardown(() => execFileSync('umount', ['-l', feedbackDir]));
  const filler = join(feedbackDir, 'filler.bin');
  await writeFile(filler, Buffer.alloc(16 * 1024));
  const h = await startFeedbackHarness({
    dataDir,
    overrides: { feedback: { perClientPerMinute: 100_000, perPagePerMinute: 100_000, globalPerMinute: 100_000 } },
  });
  t.teardown(() => h.close());
  const ok: string[] = [];
  let full: Response | null = null;
  for (let i = 0; i < 200 && !full; i++) {
    const res = await h.post({ source: 'code_snippet', path: '/', code: 'y'.repeat(3000), comment: `#${i}` });
    if (res.status === 201) ok.push(((await res.json()) as { id: string }).id);
    else full = res;
  }
  t.truthy(full, 'the disk filled up');
  t.is(full!.status, 507);
  t.deepEqual(await full!.json(), { error: 'The data volume is full; nothing was written' });
  const file = join(feedbackDir, h.projectId, `${new Date().toISOString().slice(0, 7)}.jsonl`);
  const text = await readFile(file, 'utf8');
  t.true(text.endsWith('\n'), 'no half record left behind');
  t.is(text.trim().split('\n').length, ok.length);
  t.true(ok.length > 5);
  // Free space and the same store, still running, takes appends again.
  await rm(filler);
  const after = await h.post({ source: 'thumbs_only', path: '/', helpful: true });
  t.is(after.status, 201);
  ok.push(((await after.json()) as { id: string }).id);
  await h.close({ keepData: true });
  const { log } = await tempLog(t, dataDir);
  t.teardown(() => log.close());
  const ids = new Set(await allIds(log, h.projectId));
  t.true(ok.every((id) => ids.has(id)));
  t.is(log.stats.droppedBytes, 0, 'nothing torn: the failed batch was removed cleanly');
});
