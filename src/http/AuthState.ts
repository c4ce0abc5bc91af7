/** The authenticated caller, on `ctx.state.auth` (set by the admin authentication middleware). */
export interface AuthState {
  keyId: string;
  projectId: string;
  scope: 'read' | 'write';
}
