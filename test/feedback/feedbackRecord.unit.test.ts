import test from 'ava';
import { feedbackIdFromParts, feedbackIdParts, parseFeedbackRecord } from '../../src/features/feedback/log/feedbackRecord.js';

test('id halves: only fb_ and 16 lowercase hex digits are ids, and halves sort like the text', (t) => {
  t.deepEqual(feedbackIdParts('fb_00000000ffffffff'), { idHi: 0, idLo: 0xffffffff });
  t.deepEqual(feedbackIdParts('fb_0123456789abcdef'), { idHi: 0x01234567, idLo: 0x89abcdef });
  for (const bad of [
    'fb_0123456789ABCDEF',
    'fb_0123456789abcde',
    'fb_0123456789abcdef0',
    'fx_0123456789abcdef',
    'fb_0123456789abcdeg',
    'fb_01234567 9abcdef',
    'fb_0123456789abcde\n',
    '',
  ]) {
    t.is(feedbackIdParts(bad), null, JSON.stringify(bad));
  }
  const ids = ['fb_ffffffff00000000', 'fb_00000001ffffffff', 'fb_0000000100000000', 'fb_a0000000000000ff'];
  const byHalves = [...ids].sort((a, b) => {
    const x = feedbackIdParts(a)!;
    const y = feedbackIdParts(b)!;
    return x.idHi - y.idHi || x.idLo - y.idLo;
  });
  t.deepEqual(byHalves, [...ids].sort());
  for (const id of ids) t.is(feedbackIdFromParts(feedbackIdParts(id)!.idHi, feedbackIdParts(id)!.idLo), id);
});

test('a parsed record carries its id halves; a record with a malformed id is refused', (t) => {
  const entry = parseFeedbackRecord(
    '{"type":"entry","id":"fb_0000000a0000000b","createdAt":"2026-01-02T03:04:05.006Z","source":"agent","path":"/"}',
  );
  t.like(entry, { idHi: 10, idLo: 11, createdAtMs: Date.UTC(2026, 0, 2, 3, 4, 5, 6) });
  const status = parseFeedbackRecord('{"type":"status","id":"fb_0000000a0000000b","status":"resolved","at":"2026-01-03T00:00:00.000Z"}');
  t.like(status, { idHi: 10, idLo: 11 });
  t.throws(() => parseFeedbackRecord('{"type":"status","id":"fb_0000000A0000000b","status":"resolved","at":"x"}'), { message: /valid id/ });
  t.throws(() => parseFeedbackRecord('null'), { message: /valid id/ });
  t.throws(() => parseFeedbackRecord('{"type":"entry","id":7}'), { message: /valid id/ });
});
