import test from 'ava';
import { ManualClock } from '../../src/platform/Clock.js';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { Scheduler } from '../../src/platform/Scheduler.js';

test('a task with a cron expression node-cron refuses is not scheduled: the error names the task', async (t) => {
  const scheduler = new Scheduler(createLogger('silent'), new ManualClock(new Date('2026-01-01T00:00:00Z')));
  t.teardown(() => scheduler.stop());
  const error = t.throws(() => scheduler.add({ name: 'export-retention', cron: 'every day', run: async () => {} }));
  t.regex(error.message, /export-retention: every day/);
  t.notThrows(() => scheduler.add({ name: 'agent-archive', cron: '0 3 * * *', run: async () => {} }));
});
