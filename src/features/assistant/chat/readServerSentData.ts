import { ModelError } from './ModelError.js';

/** A line longer than this is not an SSE event any endpoint sends: it is garbage or an attack. */
const MAX_LINE_BYTES = 1 << 20;

/**
 * The `data:` payloads of a `text/event-stream` body, one per event, in order. Comments,
 * `event:`/`id:`/`retry:` fields and blank keep-alive lines are skipped; multi-line data is
 * joined with `\n` as the SSE spec says. A stream that is not SSE at all yields nothing and
 * leaves the caller to notice that no `[DONE]` came.
 */
export async function* readServerSentData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  let data: string[] = [];
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.search(/\r\n|\r|\n/);
    // A lone `\r` at the end may be the first half of `\r\n`: wait for the next chunk.
    while (newline >= 0 && !(newline === buffered.length - 1 && buffered.endsWith('\r'))) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + (buffered.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
      newline = buffered.search(/\r\n|\r|\n/);
    }
    if (buffered.length > MAX_LINE_BYTES) throw new ModelError('garbage', 'The model endpoint sent a malformed stream', 'line over 1 MiB');
  }
  // Some servers end the last event without its blank line.
  if (buffered.startsWith('data:')) data.push(buffered.slice(buffered.startsWith('data: ') ? 6 : 5));
  if (data.length > 0) yield data.join('\n');
}
