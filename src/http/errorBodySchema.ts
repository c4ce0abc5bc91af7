import { z } from 'zod';

/** The spec's error body `{error, details?}`: every error response in the OpenAPI document names it. */
export const errorBodySchema = z.object({
  error: z.string(),
  details: z.array(z.object({ message: z.string() })).optional(),
});
