/**
 * fetch() whose network failures say what failed. undici reports every refused, reset or
 * half-closed connection as a bare "fetch failed" and keeps the reason in `cause`, which ava
 * does not print: a rare failure in a long suite run would otherwise leave nothing to go on.
 * The error is still thrown (nothing is retried), with the same `cause`.
 */
export async function fetchExplained(url: string | URL, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    if (!cause) throw err;
    throw new Error(
      `${(err as Error).message}: ${init?.method ?? 'GET'} ${String(url)}: ${cause.code ?? ''} ${cause.message ?? ''}`.trim(),
      { cause },
    );
  }
}
