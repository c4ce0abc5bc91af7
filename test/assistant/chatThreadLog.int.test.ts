import { appendFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import type { AssistantTurn } from '../../src/features/assistant/threads/AssistantTurn.js';
import { dropOldThreads } from '../../src/features/assistant/threads/dropOldThreads.js';
import { ThreadLog } from '../../src/features/assistant/threads/ThreadLog.js';
import { makeTempDir } from '../helpers/testAppliance.js';

const logger = createLogger('silent');

function turn(id: string, at: string, threadId = `t-${id}`): AssistantTurn {
  return {
    id,
    threadId,
    projectId: 'p',
    domain: 'docs.example.com',
    fp: ' kept as given ✓ ',
    caller: 'web',
    at,
    question: `q${id}`,
    answer: `a${id}`,
    sources: [],
    resolution: 'answered',
    pageUrl: null,
  };
}

test('turns survive a restart in time order; a torn last line is cut and later appends stay readable', async (t) => {
  const dataDir = await makeTempDir();
  const log = await ThreadLog.open({ dataDir, logger });
  await log.append(turn('1', '2026-05-01T10:00:00.000Z', 'same'));
  await log.append(turn('2', '2026-05-02T10:00:00.000Z', 'same'));
  await log.close();
  // A crash mid-write leaves half a record at the end of the day file.
  await appendFile(join(dataDir, 'assistant-threads', '2026-05-02.jsonl'), '{"id":"3","threadId":');
  const again = await ThreadLog.open({ dataDir, logger });
  t.deepEqual(
    again.all().map((x) => x.id),
    ['1', '2'],
  );
  t.deepEqual(
    again.thread('same')!.map((x) => x.id),
    ['1', '2'],
  );
  t.is(again.all()[0]!.fp, ' kept as given ✓ ');
  await again.append(turn('4', '2026-05-02T11:00:00.000Z'));
  await again.close();
  const third = await ThreadLog.open({ dataDir, logger });
  t.deepEqual(
    third.all().map((x) => x.id),
    ['1', '2', '4'],
  );
  await third.close();
});

test('retention drops whole days, on disk and in memory', async (t) => {
  const dataDir = await makeTempDir();
  const log = await ThreadLog.open({ dataDir, logger });
  await log.append(turn('old', '2026-01-01T10:00:00.000Z', 'mixed'));
  await log.append(turn('new', '2026-03-30T10:00:00.000Z', 'mixed'));
  await dropOldThreads(log, 30, new Date('2026-04-01T00:00:00.000Z'));
  t.deepEqual(
    log.all().map((x) => x.id),
    ['new'],
  );
  t.deepEqual(
    log.thread('mixed')!.map((x) => x.id),
    ['new'],
  );
  t.deepEqual(await readdir(join(dataDir, 'assistant-threads')), ['2026-03-30.jsonl']);
  await log.close();
});
