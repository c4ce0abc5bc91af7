import type { Feature, FeatureContext } from '../Feature.js';
import { signingKeyRoutes } from './routes/signingKeyRoutes.js';

/** The signing-keys feature: rotation and retirement of the keys behind signed download links. */
export function createSigningKeysFeature(ctx: FeatureContext): Feature {
  const logger = ctx.logger.child({ module: 'signing-keys' });
  return {
    name: 'signing-keys',
    routes: signingKeyRoutes({
      keyring: ctx.keyring,
      clock: ctx.clock,
      onChange: (event, kid) => logger.info({ kid }, `signing key ${event}`),
    }),
  };
}
