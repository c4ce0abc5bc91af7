import { z } from 'zod';
import { PASSWORD_HASH } from '../../platform/passwordHash.js';
import { oidcClientFields, withOidcClientChecks } from './oidcClient.js';

const sessionHours = z
  .number()
  .positive()
  .max(24 * 90)
  .optional()
  .describe('How long a reader stays signed in, in hours (default 12; a JWT or ID token that expires sooner ends it sooner).');

/** Signature algorithms a JWT may use: public-key ones only, so no `none` and no HMAC keyed with a public key. */
export const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'] as const;

const passwordMode = z
  .strictObject({
    mode: z.literal('password'),
    password: z.string().min(8).max(1024).optional().describe('The shared password (at least 8 characters); hashed on load.'),
    passwordHash: z.string().regex(PASSWORD_HASH, 'must be an scrypt hash as Enclave writes it').optional(),
    sessionHours,
  })
  .refine((a) => (a.password === undefined) !== (a.passwordHash === undefined), {
    message: 'give exactly one of password and passwordHash',
    path: ['password'],
  });

const jwtMode = z
  .strictObject({
    mode: z.literal('jwt'),
    loginUrl: z
      .url()
      .describe("The organisation's login page; it sends the reader back to /_enclave/auth/jwt-callback with a signed token."),
    jwksUrl: z.url().optional().describe('Where the signing keys are published (JWKS).'),
    publicKeyPem: z.string().min(1).max(20_000).optional().describe('Or the one signing key, as an SPKI PEM.'),
    algorithms: z.array(z.enum(JWT_ALGORITHMS)).min(1).describe('Accepted signature algorithms (pinned; public-key only).'),
    issuer: z.string().min(1).optional().describe('Required `iss` of the token, when set.'),
    audience: z.string().min(1).optional().describe('Required `aud` of the token, when set.'),
    sessionHours,
  })
  .refine((a) => (a.jwksUrl === undefined) !== (a.publicKeyPem === undefined), {
    message: 'give exactly one of jwksUrl and publicKeyPem',
    path: ['jwksUrl'],
  });

const oidcMode = withOidcClientChecks(
  z.strictObject({
    mode: z.literal('oidc'),
    ...oidcClientFields,
    logoutUrl: z.url().optional().describe("Where sign-out sends the reader afterwards (the provider's end-session page)."),
    sessionHours,
  }),
);

/**
 * A site's reader sign-in (`sites[].auth`, and `auth` on `/v1/sites`). `none` (the default):
 * the site is open. `password`: one shared password (given as `password`, hashed with scrypt
 * when read and never stored as given, or as `passwordHash`). `jwt`: the organisation's login
 * hands back a signed token. `oidc`: the network's OpenID Provider (Authorization Code + PKCE).
 */
export const readerAuthConfigSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('none') }),
  passwordMode,
  jwtMode,
  oidcMode,
]);

/** A site's reader sign-in as written (config file or API body). */
export type ReaderAuthInput = z.infer<typeof readerAuthConfigSchema>;

/** JWT sign-in as kept. */
export type JwtReaderAuth = z.infer<typeof jwtMode>;
/** OIDC sign-in as kept. */
export type OidcReaderAuth = z.infer<typeof oidcMode>;

/** A site's reader sign-in as kept: a password only ever as its hash. */
export type ReaderAuthSetting =
  | { mode: 'none' }
  | { mode: 'password'; passwordHash: string; sessionHours?: number }
  | JwtReaderAuth
  | OidcReaderAuth;

/** A reader sign-in that is on (every mode but none). */
export type ActiveReaderAuth = Exclude<ReaderAuthSetting, { mode: 'none' }>;
