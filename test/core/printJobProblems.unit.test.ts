import { PassThrough } from 'node:stream';
import test from 'ava';
import { printJobProblems } from '../../src/cli/printJobProblems.js';

function capture() {
  const err = new PassThrough();
  let text = '';
  err.on('data', (c: Buffer) => {
    text += c.toString();
  });
  return { io: { out: new PassThrough(), err, env: {} }, text: () => text };
}

test('warnings print by kind when the job groups them, so broken links hide no other kind', (t) => {
  const { io, text } = capture();
  const bad = printJobProblems(io, {
    jobId: 'se_1',
    status: 'completed',
    warnings: Array.from({ length: 3 }, (_, i) => ({ kind: 'brokenLink', page: `p${i}`, message: `broken link /x${i}` })),
    warningCount: 203,
    warningGroups: [
      { kind: 'brokenLink', count: 200, first: [{ page: 'p0', message: 'broken link /x0' }] },
      { kind: 'unknownComponent', count: 3, first: [{ page: null, message: 'unknown component <Widget> used 3 times' }] },
    ],
  });
  t.false(bad, 'warnings alone do not make a job bad');
  t.is(
    text(),
    [
      "enclave: 203 warning(s) (by kind, the first of each shown; all are in the bundle's _enclave/report.json):",
      '  brokenLink (200):',
      '    /p0: broken link /x0',
      '  unknownComponent (3):',
      '    unknown component <Widget> used 3 times',
      '',
    ].join('\n'),
  );
});

test('a job without groups (an older appliance) prints the flat list as before', (t) => {
  const { io, text } = capture();
  printJobProblems(io, { jobId: 'se_1', status: 'completed', warnings: [{ kind: 'other', page: null, message: 'm' }], warningCount: 1 });
  t.is(text(), 'enclave: 1 warning(s):\n  other: m\n');
});
