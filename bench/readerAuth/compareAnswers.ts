import { request } from 'node:http';
import { createHash } from 'node:crypto';

/** One answer as compared: status, encoding, body size and digest, and its header lines in order. */
interface Answer {
  status: number;
  encoding: string;
  bytes: number;
  sha: string;
  headerLines: string[];
}

function get(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((done, fail) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const headerLines: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headerLines.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        done({
          status: res.statusCode ?? 0,
          encoding: String(res.headers['content-encoding'] ?? 'identity'),
          bytes: body.length,
          sha: createHash('sha256').update(body).digest('hex').slice(0, 12),
          headerLines,
        });
      });
    })
      .on('error', fail)
      .end();
  });
}

/**
 * Fetches the bench page once per configuration and Accept-Encoding, prints what each answer is
 * (status, encoding, bytes, digest) and both header lists, and throws when the two configurations
 * differ in status or encoding: the ratio then would compare different answers. The bodies may
 * differ in bytes by design (a reader's copy has no links to pages hidden from them).
 */
export async function compareAnswers(url: string, cookie: string, switchTo: (mode: 'off' | 'on') => Promise<unknown>): Promise<void> {
  const rows: string[] = [];
  const lists: Record<string, string[]> = {};
  for (const encoding of ['', 'gzip', 'br, gzip']) {
    const extra: Record<string, string> = encoding ? { 'accept-encoding': encoding } : {};
    await switchTo('off');
    const off = await get(url, extra);
    await switchTo('on');
    const on = await get(url, { ...extra, cookie });
    if (off.status !== on.status || off.encoding !== on.encoding)
      throw new Error(
        `Accept-Encoding "${encoding}": auth off answers ${off.status} ${off.encoding}, signed in ${on.status} ${on.encoding}`,
      );
    rows.push(
      `  Accept-Encoding "${encoding || '(none)'}": ${off.status} ${off.encoding}, auth off ${off.bytes} B (${off.sha}), signed in ${on.bytes} B (${on.sha})`,
    );
    if (!encoding) Object.assign(lists, { off: off.headerLines, on: on.headerLines });
  }
  console.log(`the bench page in both configurations:\n${rows.join('\n')}`);
  for (const mode of ['off', 'on'])
    console.log(
      `  headers, ${mode === 'off' ? 'auth off' : 'signed in'} (${lists[mode].length}): ${lists[mode].map((line) => line.split(':')[0]).join(', ')}`,
    );
  console.log('');
}
