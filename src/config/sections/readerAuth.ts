import { z } from 'zod';
import { PASSWORD_HASH } from '../../platform/passwordHash.js';

const sessionHours = z
  .number()
  .positive()
  .max(24 * 90)
  .optional()
  .describe('How long a reader stays signed in, in hours (default 12).');

/**
 * A site's reader sign-in (`sites[].auth`, and `auth` on `/v1/sites`). `none` (the default):
 * the site is open. `password`: one shared password per site; give `password` (hashed with
 * scrypt when read, never stored as given) or `passwordHash` (`scrypt$…`, as the API stores it).
 */
export const readerAuthConfigSchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('none') }),
  z
    .strictObject({
      mode: z.literal('password'),
      password: z.string().min(8).max(1024).optional().describe('The shared password (at least 8 characters); hashed on load.'),
      passwordHash: z.string().regex(PASSWORD_HASH, 'must be an scrypt hash as Enclave writes it').optional(),
      sessionHours,
    })
    .refine((a) => (a.password === undefined) !== (a.passwordHash === undefined), {
      message: 'give exactly one of password and passwordHash',
      path: ['password'],
    }),
]);

/** A site's reader sign-in as written (config file or API body). */
export type ReaderAuthInput = z.infer<typeof readerAuthConfigSchema>;

/** A site's reader sign-in as kept: a password only ever as its hash. */
export type ReaderAuthSetting = { mode: 'none' } | { mode: 'password'; passwordHash: string; sessionHours?: number };
