import test from 'ava';
import { createLogger } from '../../src/platform/logging/createLogger.js';
import { redactUrl } from '../../src/platform/logging/redact.js';
import { generateAdminKey } from '../../src/features/control/adminKeyFormat.js';

test('link signatures and admin keys never reach a log line', (t) => {
  const key = generateAdminKey();
  t.is(redactUrl('/bundles/se_1/a.zip?expires=1&kid=k1&sig=abcdef'), '/bundles/se_1/a.zip?expires=1&kid=k1&sig=REDACTED');
  t.is(redactUrl(`/x?token=${key}`), '/x?token=REDACTED');
  t.false(redactUrl(`/x/${key}`).includes(key));
  const lines: string[] = [];
  const logger = createLogger('info', { write: (l: string) => void lines.push(l) });
  logger.info({ headers: { authorization: `Bearer ${key}` }, secret: 's3cret' }, 'request');
  t.false(lines.join('').includes(key));
  t.false(lines.join('').includes('s3cret'));
  t.regex(lines[0], /"level":30/);
});
