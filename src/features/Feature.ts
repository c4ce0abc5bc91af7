import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { SigningKeyring } from '../platform/SigningKeyring.js';
import type { Config } from '../config/schema.js';
import type { Clock } from '../platform/Clock.js';
import type { Task } from '../platform/Task.js';
import type { RouteSpec } from '../http/defineRoute.js';
import type { SiteRequestHandler } from '../http/SiteRequestHandler.js';
import type { SiteDirectory } from './control/SiteDirectory.js';

/** What every feature module is built from. */
export interface FeatureContext {
  config: Config;
  logger: Logger;
  clock: Clock;
  /** The sites and their projects, read-only (the control feature's port; its store stays its own). */
  sites: SiteDirectory;
  keyring: SigningKeyring;
  /** Base URL for links this appliance hands out (known once the server listens). */
  publicUrl(): string;
  /** The application version (package.json). */
  version: string;
}

/** One line of /_enclave/ready. */
export interface Readiness {
  status: 'ok' | 'degraded' | 'unavailable';
  detail?: string;
  [extra: string]: unknown;
}

/** A feature of the appliance: its routes, optional site handler, readiness and lifecycle. */
export interface Feature {
  name: string;
  routes: RouteSpec[];
  /** Answers non-admin paths (the live docs sites). At most one module provides it. */
  siteHandler?: SiteRequestHandler;
  /**
   * Middleware for every request Koa sees (not the site fast path), mounted in feature order
   * after the security headers and before host checks and routing (feedback's CORS).
   */
  middleware?: Middleware[];
  /** Authenticates admin routes and sets `ctx.state.auth`. One feature provides it (control). */
  authenticate?: Middleware;
  /** Authenticates assistant routes (assistant keys) and sets `ctx.state.auth`. One feature provides it (assistant). */
  authenticateAssistant?: Middleware;
  /** Background work on a cron; app/ schedules every feature's tasks in one scheduler after start(). */
  tasks?: Task[];
  readiness?(): Readiness;
  /** Background work (workers, queues). Not called by createApp, only by main/tests. */
  start?(): Promise<void>;
  /** Finish or checkpoint in-flight work; called on SIGTERM. */
  stop?(): Promise<void>;
}
