import type { Writable } from 'node:stream';

const LEVELS: Record<number, [string, string]> = {
  10: ['TRACE', '\x1b[90m'],
  20: ['DEBUG', '\x1b[36m'],
  30: ['INFO ', '\x1b[32m'],
  40: ['WARN ', '\x1b[33m'],
  50: ['ERROR', '\x1b[31m'],
  60: ['FATAL', '\x1b[35m'],
};
const RESET = '\x1b[0m';
const DIM = '\x1b[2m';
/** Fields every line has, or that the line's prefix already shows. */
const OMITTED = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname']);

/**
 * A pino destination for people at a terminal: `12:00:01.234 INFO  message key=value …` in
 * colour, instead of JSON. The fields are the same (already redacted by the logger).
 */
export function prettyLogStream(out: Writable, options: { color?: boolean } = {}): { write(line: string): void } {
  const color = options.color ?? true;
  const paint = (code: string, text: string) => (color ? `${code}${text}${RESET}` : text);
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out.write(line);
        return;
      }
      const [label, code] = LEVELS[entry.level as number] ?? ['LOG  ', ''];
      const time = typeof entry.time === 'string' ? entry.time.slice(11, 23) : '';
      const fields = Object.entries(entry)
        .filter(([k]) => !OMITTED.has(k))
        .map(([k, v]) => `${k}=${describeValue(v)}`)
        .join(' ');
      out.write(`${paint(DIM, time)} ${paint(code, label)} ${String(entry.msg ?? '')}${fields ? ` ${paint(DIM, fields)}` : ''}\n`);
    },
  };
}

/** Strings as they are, errors by their message (the stack is in JSON mode), the rest as JSON. */
function describeValue(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && 'message' in v && 'stack' in v) return String((v as { message: unknown }).message);
  return JSON.stringify(v);
}
