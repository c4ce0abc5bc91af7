import test from 'ava';
import { READER_COOKIE, readerCookieValue } from '../../src/features/readerAuth/readerCookie.js';

test('the reader cookie is found by its name only: first pair wins, names and values trimmed', (t) => {
  t.is(readerCookieValue(undefined), undefined);
  t.is(readerCookieValue(''), undefined);
  t.is(readerCookieValue(`${READER_COOKIE}=v1.a.b.c`), 'v1.a.b.c');
  t.is(readerCookieValue(`theme=dark;  ${READER_COOKIE} = v1.x ; other=1`), 'v1.x');
  t.is(readerCookieValue(`${READER_COOKIE}=first; ${READER_COOKIE}=second`), 'first');
  t.is(readerCookieValue(`${READER_COOKIE}=`), '');
});

test('the name inside another cookie’s name or value, or without "=", is not the reader cookie', (t) => {
  t.is(readerCookieValue(`x${READER_COOKIE}=forged`), undefined);
  t.is(readerCookieValue(`${READER_COOKIE}x=forged`), undefined);
  t.is(readerCookieValue(`other=${READER_COOKIE}=forged`), undefined);
  t.is(readerCookieValue(`${READER_COOKIE}; other=1`), undefined);
  t.is(readerCookieValue(`other=${READER_COOKIE}; ${READER_COOKIE}=real`), 'real');
  t.is(readerCookieValue(`a=1;${READER_COOKIE}=tight`), 'tight');
});
