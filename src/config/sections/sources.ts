import { z } from 'zod';

/** Git sources: how the appliance fetches sites whose `source` is `{ git, branch }`. */
export const sourcesConfigSchema = z.strictObject({
  fetchTimeoutSeconds: z
    .number()
    .int()
    .positive()
    .max(3600)
    .describe('Give up a fetch of a git source after this long (the live version stays).'),
});
