import { z } from 'zod';
import type { AuthState } from '../../http/AuthState.js';
import { defineRoute, type RouteSpec } from '../../http/defineRoute.js';
import type { OidcFlows } from '../../platform/oidc/OidcFlows.js';
import { AppError } from '../../platform/AppError.js';
import type { Feature, FeatureContext } from '../Feature.js';
import { DASHBOARD_CALLBACK_PATH, DASHBOARD_HANDOFF_PATH, type DashboardSignIn, dashboardSignIn } from './dashboardSignIn.js';
import type { SessionKeys } from '../control/SessionKeys.js';

/**
 * The dashboard's sign-in through the OpenID Provider (`dashboard.oidc`), on the dashboard's
 * listener only (its paths are under `/_enclave/admin`, which createApp mounts nowhere else).
 * Without the setting, `options` says so and every other route is a 404: keys only.
 */
export function createDashboardAuthFeature(ctx: FeatureContext, deps: { oidc: OidcFlows; keys: SessionKeys }): Feature {
  const setting = ctx.config.dashboard.oidc;
  const signIn = setting ? dashboardSignIn(setting, { ...deps, clock: ctx.clock }) : null;
  return { name: 'dashboardAuth', routes: [...signInRoutes(signIn), ...sessionRoutes(signIn)] };
}

const off = { 404: { description: 'Dashboard sign-in through a provider is not configured' } };

/** Whether provider sign-in is on, its start and the provider's way back. */
function signInRoutes(signIn: DashboardSignIn | null): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/_enclave/admin/auth/options',
      summary: 'How the dashboard may sign in besides a key',
      tag: 'dashboard',
      auth: 'public',
      responses: { 200: { description: 'Whether provider sign-in is on', schema: z.object({ oidc: z.boolean() }) } },
      handler(c) {
        c.set('Cache-Control', 'no-store');
        c.body = { oidc: signIn !== null };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/_enclave/admin/auth/login',
      summary: "Starts dashboard sign-in at the organisation's OpenID Provider",
      tag: 'dashboard',
      auth: 'public',
      responses: {
        302: { description: 'To the provider' },
        503: { description: 'The provider cannot be reached', contentType: 'text/html' },
        ...off,
      },
      async handler(c) {
        c.set('Cache-Control', 'no-store');
        if (!signIn) throw notConfigured();
        await signIn.start(c);
      },
    }),
    defineRoute({
      method: 'GET',
      path: DASHBOARD_CALLBACK_PATH,
      summary: "The provider's way back: admin-group members get a session key, others a refusal",
      tag: 'dashboard',
      auth: 'public',
      responses: {
        303: { description: 'Signed in: back to the dashboard, which collects its key' },
        400: { description: 'A state used already, expired or from another browser', contentType: 'text/html' },
        401: { description: 'The provider did not sign the administrator in', contentType: 'text/html' },
        403: { description: 'Not a member of the admin group', contentType: 'text/html' },
        ...off,
      },
      async handler(c) {
        c.set('Cache-Control', 'no-store');
        if (!signIn) throw notConfigured();
        await signIn.callback(c);
      },
    }),
  ];
}

/** The page collecting its session key, and the session's sign-out. */
function sessionRoutes(signIn: DashboardSignIn | null): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: DASHBOARD_HANDOFF_PATH,
      summary: 'The dashboard page collects the key minted for its sign-in (once)',
      tag: 'dashboard',
      auth: 'public',
      responses: {
        200: {
          description: 'The session key',
          schema: z.object({ key: z.string(), projectId: z.string(), expiresAt: z.string() }),
        },
        ...off,
      },
      handler(c) {
        c.set('Cache-Control', 'no-store');
        const found = signIn?.handoff(c);
        if (!found) throw AppError.notFound('No sign-in is waiting for this browser');
        c.body = found;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/_enclave/admin/auth/sign-out',
      summary: "Ends a provider sign-in's session: its key is revoked (a pasted key is left as it is)",
      tag: 'dashboard',
      auth: 'admin',
      responses: {
        200: { description: 'Whether a session key was revoked', schema: z.object({ revoked: z.boolean() }) },
        401: { description: 'Missing or invalid admin key' },
      },
      async handler(c) {
        const auth = c.state.auth as AuthState;
        c.set('Cache-Control', 'no-store');
        c.body = { revoked: signIn ? await signIn.signOut(auth.projectId, auth.keyId) : false };
      },
    }),
  ];
}

function notConfigured(): AppError {
  return AppError.notFound('Dashboard sign-in through a provider is not configured (dashboard.oidc)');
}
