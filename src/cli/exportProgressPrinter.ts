import type { CliIo } from './CliIo.js';
import { countOf } from './countOf.js';
import { escapeControls } from './escapeControls.js';

const BAR_WIDTH = 30;

/** What the printer reads of an export job. */
export interface ExportProgress {
  jobId: string;
  status: string;
  progress: number;
  pageCount: number;
}

/**
 * Draws an export's progress in place on a terminal; anywhere else (a log, CI) it prints one
 * plain line per event (a status change or another 10 %), never a carriage return.
 */
export function exportProgressPrinter(io: CliIo): { show(job: ExportProgress): void; end(): void } {
  const tty = Boolean((io.err as { isTTY?: boolean }).isTTY);
  let lastLine = '';
  let drawn = false;
  return {
    show(job) {
      const filled = Math.round((job.progress / 100) * BAR_WIDTH);
      if (tty) {
        io.err.write(
          `\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(job.progress)).padStart(3)}% ${countOf(job.pageCount, 'page')} ${escapeControls(job.status)}\x1b[K`,
        );
        drawn = true;
        return;
      }
      const line = `${job.jobId} ${job.status} ${Math.floor(job.progress / 10) * 10}%`;
      if (line !== lastLine)
        io.err.write(`${escapeControls(`${job.jobId} ${job.status} ${Math.floor(job.progress)}% (${countOf(job.pageCount, 'page')})`)}\n`);
      lastLine = line;
    },
    end() {
      if (drawn) io.err.write('\n');
    },
  };
}
