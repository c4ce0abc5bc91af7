import { PassThrough } from 'node:stream';
import test from 'ava';
import { countOf } from '../../src/cli/countOf.js';
import { exportProgressPrinter } from '../../src/cli/exportProgressPrinter.js';

function capture(isTTY: boolean) {
  const err = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  err.on('data', (c) => (text += String(c)));
  return { io: { out: new PassThrough(), err, env: {} }, text: () => text };
}

const polls = [
  { status: 'queued', progress: 0, pageCount: 0 },
  { status: 'running', progress: 0, pageCount: 0 },
  { status: 'running', progress: 4, pageCount: 1 },
  { status: 'running', progress: 12, pageCount: 1 },
  { status: 'running', progress: 12, pageCount: 1 },
  { status: 'completed', progress: 100, pageCount: 1 },
].map((p) => ({ jobId: 'se_0123456789abcdef', ...p }));

test('away from a terminal, export progress is one plain line per event and counts "1 page"', (t) => {
  const run = capture(false);
  const printer = exportProgressPrinter(run.io);
  for (const poll of polls) printer.show(poll);
  printer.end();
  t.is(
    run.text(),
    [
      'se_0123456789abcdef queued 0% (0 pages)',
      'se_0123456789abcdef running 0% (0 pages)',
      'se_0123456789abcdef running 12% (1 page)',
      'se_0123456789abcdef completed 100% (1 page)',
      '',
    ].join('\n'),
  );
  t.notRegex(run.text(), /[\r\x1b]/, 'no carriage return or escape sequence');
});

test('on a terminal the bar is redrawn in place and counts "1 page"', (t) => {
  const run = capture(true);
  const printer = exportProgressPrinter(run.io);
  printer.show(polls[3]);
  printer.end();
  t.regex(run.text(), /^\r\[#{4}\.{26}\] {2}12% 1 page running\x1b\[K\n$/);
});

test('countOf says "1 page" and "2 pages"', (t) => {
  t.is(countOf(1, 'page'), '1 page');
  t.is(countOf(0, 'page'), '0 pages');
  t.is(countOf(2, 'version'), '2 versions');
});
