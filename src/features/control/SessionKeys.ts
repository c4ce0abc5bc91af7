/**
 * The admin keys a dashboard sign-in holds (control's keys, reached through app/): minted for
 * one session with an expiry, named so the keys list shows them for what they are, and revoked
 * when the session signs out.
 */
export interface SessionKeys {
  /** Mints a key of `projectId` (null: the default project) valid until `expiresAt`; the plain key, once. */
  mint(input: {
    projectId: string | null;
    name: string;
    scope: 'read' | 'write';
    expiresAt: Date;
  }): Promise<{ key: string; id: string; projectId: string }>;
  /** The name of key `id` of `projectId`, or undefined when there is no such key. */
  nameOf(projectId: string, id: string): string | undefined;
  /** Revokes key `id` of `projectId`. */
  revoke(projectId: string, id: string): Promise<void>;
}
