import type { Context } from 'koa';
import type { AuthState } from './AuthState.js';

/** The project of the admin key that authenticated this request (routes with `auth: 'admin'`). */
export function callerProject(ctx: Context): string {
  return (ctx.state.auth as AuthState).projectId;
}
