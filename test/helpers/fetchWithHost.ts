import { request } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A fetch() that sends `host` as the Host header (fetch itself always sends the URL's), so a
 * client library that takes a fetch can talk to one site of a multi-site appliance on 127.0.0.1.
 * Plain http only; the body is sent as a string or bytes.
 */
export function fetchWithHost(host: string): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = { host };
    new Headers(init.headers).forEach((value, name) => {
      if (name !== 'host') headers[name] = value;
    });
    const body = init.body === undefined || init.body === null ? undefined : Buffer.from(await new Response(init.body).arrayBuffer());
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, { method: init.method ?? 'GET', headers, signal: init.signal ?? undefined }, (res) => {
        const out = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out.set(name, String(value));
        const status = res.statusCode ?? 0;
        const hasBody = status !== 204 && status !== 304 && (init.method ?? 'GET') !== 'HEAD';
        resolve(new Response(hasBody ? (Readable.toWeb(res) as ReadableStream) : null, { status, headers: out }));
      });
      req.once('error', reject);
      req.end(body);
    });
  };
}
