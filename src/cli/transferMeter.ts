import { Transform } from 'node:stream';
import type { CliIo } from './CliIo.js';

const BAR_WIDTH = 30;
/** Redraw at most this often on a terminal. */
const TTY_INTERVAL_MS = 200;

/** `1.5 MiB` style sizes. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * A pass-through stream that reports download progress on stderr: a bar with bytes and rate
 * redrawn in place on a terminal; on anything else (logs, CI) a plain line per quarter and one
 * at the end, never a carriage return.
 */
export function transferMeter(io: CliIo, options: { total: number; start: number; now?: () => number }): Transform {
  const now = options.now ?? Date.now;
  const tty = Boolean((io.err as { isTTY?: boolean }).isTTY);
  const began = now();
  let done = options.start;
  let lastDraw = 0;
  let lastQuarter = Math.floor((done / Math.max(1, options.total)) * 4);
  const line = () => {
    const seconds = Math.max(0.001, (now() - began) / 1000);
    const rate = `${formatBytes(Math.round((done - options.start) / seconds))}/s`;
    const pct = options.total > 0 ? Math.min(100, Math.floor((done / options.total) * 100)) : 100;
    return { pct, text: `${formatBytes(done)} / ${formatBytes(options.total)} ${String(pct).padStart(3)}% ${rate}` };
  };
  const draw = (final: boolean) => {
    const { pct, text } = line();
    if (tty) {
      if (!final && now() - lastDraw < TTY_INTERVAL_MS) return;
      lastDraw = now();
      const filled = Math.round((pct / 100) * BAR_WIDTH);
      io.err.write(`\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${text}\x1b[K${final ? '\n' : ''}`);
      return;
    }
    const quarter = Math.floor((pct / 100) * 4);
    if (final || quarter > lastQuarter) io.err.write(`download ${text}\n`);
    lastQuarter = quarter;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      done += chunk.length;
      draw(false);
      callback(null, chunk);
    },
    flush(callback) {
      draw(true);
      callback();
    },
  });
}
