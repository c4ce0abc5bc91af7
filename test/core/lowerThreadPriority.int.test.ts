import { getPriority } from 'node:os';
import test from 'ava';
import { startThread } from '../../src/platform/threads/startThread.js';

test('a thread can lower its own priority to the lowest, and the rest of the process keeps its own', async (t) => {
  const before = getPriority(process.pid);
  const worker = startThread(new URL('./fixtures/lowPriorityThread.ts', import.meta.url));
  t.teardown(() => worker.terminate());
  const report = await new Promise<{ nice: number | null; tid: number; seen: number; processNice: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  t.is(report.nice, 19);
  t.is(report.seen, 19, 'as the kernel reports it for that thread');
  t.not(report.tid, process.pid, 'a thread of its own, not the process');
  t.is(report.processNice, before, 'the main thread is left as it was');
  t.is(getPriority(process.pid), before);
});
