import { z } from 'zod';

/** The relying-party settings readers' and the dashboard's OpenID Connect sign-in share. */
export const oidcClientFields = {
  issuer: z.url().describe('The OpenID Provider (its /.well-known/openid-configuration is read).'),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1).optional().describe('Client secret (or clientSecretFile).'),
  clientSecretFile: z.string().min(1).optional().describe('A file holding the client secret.'),
  scopes: z.array(z.string().min(1)).default(['openid', 'profile', 'email']).describe('Scopes asked for (openid is always added).'),
  authorizationParams: z.record(z.string(), z.string()).default({}).describe('Extra parameters of the authorization request.'),
  groupsSource: z.enum(['id_token', 'access_token', 'userinfo', 'infoUrl']).default('id_token').describe('Where the groups come from.'),
  groupsClaim: z.string().min(1).default('groups').describe('The claim naming the groups.'),
  groupsDelimiter: z
    .string()
    .min(1)
    .optional()
    .describe('Splits a string claim into groups (trimmed, empty ones dropped; arrays are never split).'),
  infoUrl: z.url().optional().describe('With groupsSource infoUrl: fetched with the access token; answers JSON holding groupsClaim.'),
  allowInsecureIssuer: z.boolean().default(false).describe('Allow an http:// issuer (a provider on a closed test network only).'),
};

/** What the checks below read of an OpenID Connect client setting. */
interface OidcClientShape {
  clientSecret?: string;
  clientSecretFile?: string;
  groupsSource: string;
  infoUrl?: string;
}

/** The checks across fields every OpenID Connect client setting gets: one secret form, and infoUrl where groups come from it. */
export function withOidcClientChecks<T extends z.ZodType<OidcClientShape>>(schema: T): T {
  return schema
    .refine((a) => (a.clientSecret === undefined) !== (a.clientSecretFile === undefined), {
      message: 'give exactly one of clientSecret and clientSecretFile',
      path: ['clientSecret'],
    })
    .refine((a) => a.groupsSource !== 'infoUrl' || a.infoUrl !== undefined, {
      message: 'infoUrl is required with groupsSource infoUrl',
      path: ['infoUrl'],
    });
}
