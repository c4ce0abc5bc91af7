import { z } from 'zod';
import { oidcClientFields, withOidcClientChecks } from './oidcClient.js';

const oidc = withOidcClientChecks(
  z.strictObject({
    ...oidcClientFields,
    issuer: oidcClientFields.issuer.describe(
      'The OpenID Provider (its /.well-known/openid-configuration is read); usually the one readers sign in at.',
    ),
    clientId: oidcClientFields.clientId.describe(
      "The dashboard's client at the provider (its redirect URI: <dashboard URL>/_enclave/admin/auth/callback).",
    ),
    adminGroup: z.string().min(1).describe('Only members of this group may sign in to the dashboard.'),
    projectId: z.string().min(1).optional().describe('The project the dashboard session works in (default: the default project).'),
    scope: z.enum(['read', 'write']).default('write').describe("The session key's scope."),
    sessionHours: z.number().positive().max(24).default(8).describe('How long a dashboard session (and its key) lasts, in hours.'),
  }),
);

/**
 * The admin dashboard's own sign-in (`dashboard`): with `oidc` set, members of `adminGroup` at
 * the organisation's OpenID Provider sign in to the dashboard, which then holds a short-lived
 * admin key minted for the session; pasting a key keeps working, and the admin API stays key-based.
 */
export const dashboardConfigSchema = z.strictObject({
  oidc: oidc.nullable().default(null).describe('Sign-in through an OpenID Provider for members of an admin group; null: keys only.'),
});

/** The dashboard's OIDC sign-in as configured. */
export type DashboardOidc = z.infer<typeof oidc>;
