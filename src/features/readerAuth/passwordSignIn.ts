import type { Context } from 'koa';
import { RateLimiter } from '../../http/RateLimiter.js';
import type { Clock } from '../../platform/Clock.js';
import { verifyPassword } from '../../platform/passwordHash.js';
import { safeReturnTo } from './safeReturnTo.js';
import { finishSignIn, type SignInRequest, signInAnswer } from './SignInRequest.js';

/** Sign-in attempts per site and client address in one window (a shared password invites guessing). */
const ATTEMPTS = 10;
const WINDOW_MS = 15 * 60_000;
/** A sign-in form is a password and a path: anything larger is not one. */
const FORM_LIMIT_BYTES = 4096;

/** The password form's post: checked against the site's scrypt hash, attempts limited per site and address. */
export function passwordSignIn(
  clock: Clock,
): (request: SignInRequest<{ mode: 'password'; passwordHash: string; sessionHours?: number }>) => Promise<void> {
  const limiter = new RateLimiter('reader-sign-in', ATTEMPTS, WINDOW_MS, clock);
  return async (request) => {
    const { ctx, domain, setting } = request;
    const form = await readForm(ctx);
    const returnTo = safeReturnTo(form?.get('returnTo'));
    const decision = limiter.consume(`${domain}|${ctx.ip}`);
    if (!decision.allowed) {
      ctx.set('Retry-After', String(decision.resetSeconds));
      return signInAnswer(request, 429, returnTo, 'Too many sign-in attempts from here. Try again later.');
    }
    if (!(await verifyPassword(form?.get('password') ?? '', setting.passwordHash)))
      return signInAnswer(request, 401, returnTo, 'That password is not right.');
    finishSignIn(request, [], null, returnTo);
  };
}

/** The url-encoded form of a post, or null when it is not one or too large. */
export async function readForm(ctx: Context): Promise<URLSearchParams | null> {
  if (!ctx.is('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_LIMIT_BYTES) return null;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
