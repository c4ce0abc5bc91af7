import { z } from 'zod';

const oidc = z
  .strictObject({
    issuer: z.url().describe('The OpenID Provider (its /.well-known/openid-configuration is read); usually the one readers sign in at.'),
    clientId: z
      .string()
      .min(1)
      .describe("The dashboard's client at the provider (its redirect URI: <dashboard URL>/_enclave/admin/auth/callback)."),
    clientSecret: z.string().min(1).optional().describe('Client secret (or clientSecretFile).'),
    clientSecretFile: z.string().min(1).optional().describe('A file holding the client secret.'),
    scopes: z.array(z.string().min(1)).default(['openid', 'profile', 'email']).describe('Scopes asked for (openid is always added).'),
    authorizationParams: z.record(z.string(), z.string()).default({}).describe('Extra parameters of the authorization request.'),
    groupsSource: z.enum(['id_token', 'access_token', 'userinfo', 'infoUrl']).default('id_token').describe('Where the groups come from.'),
    groupsClaim: z.string().min(1).default('groups').describe('The claim naming the groups.'),
    groupsDelimiter: z.string().min(1).optional().describe('Splits a string claim into groups (as for readers).'),
    infoUrl: z.url().optional().describe('With groupsSource infoUrl: fetched with the access token; answers JSON holding groupsClaim.'),
    adminGroup: z.string().min(1).describe('Only members of this group may sign in to the dashboard.'),
    projectId: z.string().min(1).optional().describe('The project the dashboard session works in (default: the default project).'),
    scope: z.enum(['read', 'write']).default('write').describe("The session key's scope."),
    sessionHours: z.number().positive().max(24).default(8).describe('How long a dashboard session (and its key) lasts, in hours.'),
    allowInsecureIssuer: z.boolean().default(false).describe('Allow an http:// issuer (a provider on a closed test network only).'),
  })
  .refine((a) => (a.clientSecret === undefined) !== (a.clientSecretFile === undefined), {
    message: 'give exactly one of clientSecret and clientSecretFile',
    path: ['clientSecret'],
  })
  .refine((a) => a.groupsSource !== 'infoUrl' || a.infoUrl !== undefined, {
    message: 'infoUrl is required with groupsSource infoUrl',
    path: ['infoUrl'],
  });

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
