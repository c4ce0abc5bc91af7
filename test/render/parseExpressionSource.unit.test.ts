import test from 'ava';
import { parseExpressionSource } from '../../src/render/mdx/parseExpressionSource.js';

test('the same expression source is parsed once and its tree shared', (t) => {
  const first = parseExpressionSource('{ cols: 2, title: "x" }');
  t.is(first?.type, 'ObjectExpression');
  t.is(parseExpressionSource('{ cols: 2, title: "x" }'), first, 'same tree for the same text');
  t.not(parseExpressionSource('{ cols: 3, title: "x" }'), first, 'other text, other tree');
});

test('comment-only expressions are null, cached or not', (t) => {
  t.is(parseExpressionSource('/* a note */'), null);
  t.is(parseExpressionSource('/* a note */'), null);
  t.is(parseExpressionSource('// line comment'), null);
});

test("invalid syntax throws every time, with the parser's message", (t) => {
  const first = t.throws(() => parseExpressionSource('1 +* 2'));
  const again = t.throws(() => parseExpressionSource('1 +* 2'));
  t.truthy(first?.message);
  t.is(again?.message, first?.message, 'a cached failure reads the same');
});

test('long expressions are parsed afresh each time (not kept)', (t) => {
  const long = `[${Array.from({ length: 300 }, (_, i) => i).join(', ')}]`;
  const a = parseExpressionSource(long);
  t.is(a?.type, 'ArrayExpression');
  t.not(parseExpressionSource(long), a);
  t.deepEqual(parseExpressionSource(long), a);
});
