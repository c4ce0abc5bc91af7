import test from 'ava';
import type { FeedbackSubmission } from '../../src/features/feedback/FeedbackEntry.js';
import { startFeedbackHarness } from '../feedback/feedbackHarness.js';

test('by-page thumbsUp and thumbsDown count contextual ratings only; total counts every entry', async (t) => {
  const h = await startFeedbackHarness();
  t.teardown(() => h.close());
  const rows: FeedbackSubmission[] = [
    { source: 'contextual', path: '/', helpful: true },
    { source: 'contextual', path: '/', helpful: true },
    { source: 'contextual', path: '/', helpful: false },
    { source: 'thumbs_only', path: '/', helpful: true },
    { source: 'thumbs_only', path: '/', helpful: false },
    { source: 'agent', path: '/', helpful: false, comment: 'the agent could not find it' } as FeedbackSubmission,
    { source: 'code_snippet', path: '/', code: 'ls', lang: 'bash' },
  ];
  for (const [i, row] of rows.entries())
    await h.module.log.append(h.projectId, { ...row, domain: 'docs.test' }, new Date(Date.UTC(2026, 2, 1, 0, 0, i)));
  const all = await h.api('/feedback/by-page');
  t.is(all.status, 200);
  t.deepEqual(await all.json(), { feedback: [{ path: '/', thumbsUp: 2, thumbsDown: 1, code: 1, total: 7 }], hasMore: false });
  // The site filter walks the rows instead of the checkpointed counts: the same rule holds there.
  const site = await h.api('/feedback/by-page?domain=docs.test&source=thumbs_only');
  t.deepEqual(await site.json(), { feedback: [{ path: '/', thumbsUp: 0, thumbsDown: 0, code: 0, total: 2 }], hasMore: false });
});
