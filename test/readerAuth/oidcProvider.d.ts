// The few parts of oidc-provider (a test-only dependency without bundled types) the tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  }
  interface ProviderContext {
    oidc: {
      provider: { Grant: new (init: { clientId: string; accountId: string }) => Grant };
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  }
  interface Configuration {
    clients: Record<string, unknown>[];
    jwks?: { keys: Record<string, unknown>[] };
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    features?: Record<string, unknown>;
    findAccount(ctx: ProviderContext, sub: string): { accountId: string; claims(): Record<string, unknown> };
    loadExistingGrant?(ctx: ProviderContext): Promise<Grant>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
