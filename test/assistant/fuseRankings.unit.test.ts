import test from 'ava';
import { fuseRankings, RRF_K } from '../../src/features/assistant/retrieval/vectors/fuseRankings.js';

test('agreement between both lists outranks the first place of one list alone', (t) => {
  // 1 leads the keywords but the vectors put it last; 2 is second by keywords and first by vector.
  const fused = fuseRankings([1, 2], [2, 3, 4, 1]);
  t.deepEqual(
    fused.map((f) => f.id),
    [2, 1, 3, 4],
  );
  t.is(fused[0]!.share, (1 / (RRF_K + 2) + 1 / (RRF_K + 1)) / (2 / (RRF_K + 1)));
});

test('first in both lists is the best possible share; ties go to the lower id', (t) => {
  t.deepEqual(fuseRankings([7], [7]), [{ id: 7, share: 1 }]);
  t.deepEqual(
    fuseRankings([5], [3]).map((f) => f.id),
    [3, 5],
  );
});
