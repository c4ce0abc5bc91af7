import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The connection limits of one listener. */
export interface ConnectionLimits {
  /** Sockets at once on this listener. */
  maxConnections: number;
  /** Sockets at once from one client address. */
  maxConnectionsPerAddress: number;
}

/** Probe paths that may use the reserved connections. */
const PROBE_PATH = /^\/_enclave\/(?:health|ready)(?:[/?]|$)/;
/** A socket admitted to the reserved slice must send its request within this time. */
const RESERVED_REQUEST_MS = 2000;
/** A new socket is not shed for another client's before it had this long to send its request (a probe needs milliseconds). */
const GRACE_BEFORE_SHED_MS = 250;

interface SocketState {
  address: string;
  /** Requests received and not yet answered. */
  active: number;
  /** False once the socket was shed or closed (its slot is already given back). */
  counted: boolean;
  reserved: boolean;
}

/** Sockets of one group (one address, or all) that could be closed to make room, oldest first. */
class Sheddable {
  /** Keep-alive sockets between requests. */
  readonly idle = new Set<Socket>();
  /** Sockets that have not finished sending a first request (idle, preconnected or slow headers), with when they connected. */
  readonly waiting = new Map<Socket, number>();
  count = 0;

  /** The socket to close first: an idle keep-alive one, else the longest-waiting new one if it has waited `graceMs`. */
  pick(now: number, graceMs: number): Socket | undefined {
    for (const socket of this.idle) return socket;
    for (const [socket, since] of this.waiting) return now - since >= graceMs ? socket : undefined;
    return undefined;
  }
}

/**
 * Keeps one client, or a crowd of idle sockets, from taking every connection of a listener:
 * a per-address cap (a client at its cap first loses its own idle sockets), idle keep-alive and
 * not-yet-used sockets shed first near the global cap, and a reserved slice of connections that
 * only answers `/_enclave/health` and `/_enclave/ready`, so probes get through when every other
 * slot holds a request in progress. Replaces Node's `server.maxConnections`, which refuses new
 * sockets without ever closing idle ones.
 */
export class ConnectionGuard {
  private readonly states = new Map<Socket, SocketState>();
  private readonly all = new Sheddable();
  private readonly byAddress = new Map<string, Sheddable>();
  private readonly reservedSlots: number;

  constructor(
    private readonly limits: ConnectionLimits,
    /** The clock for the shedding grace (tests pass their own). */
    private readonly now: () => number = Date.now,
  ) {
    // A small slice: enough for a few probes at once, never most of a small cap.
    this.reservedSlots = Math.min(16, Math.max(1, Math.floor(limits.maxConnections / 8)));
  }

  /** Applies the guard to `server` and returns `handler` wrapped to track requests per socket. */
  attach(server: Server, handler: RequestListener): RequestListener {
    server.on('connection', (socket: Socket) => this.admit(socket));
    return (req, res) => this.handle(req, res, handler);
  }

  private admit(socket: Socket): void {
    const address = socket.remoteAddress ?? '';
    let group = this.byAddress.get(address);
    // A client at its own cap gives up its own sockets, however new: it only crowds itself.
    if (group && group.count >= this.limits.maxConnectionsPerAddress && !this.shedFrom(group, 0)) {
      socket.destroy();
      return;
    }
    let reserved = false;
    // Others' new sockets get a grace, so a flood of connections can't keep shedding a probe's
    // socket before its request arrives.
    if (this.all.count >= this.limits.maxConnections - this.reservedSlots && !this.shedFrom(this.all, GRACE_BEFORE_SHED_MS)) {
      if (this.all.count >= this.limits.maxConnections) {
        socket.destroy();
        return;
      }
      reserved = true;
    }
    if (!group) {
      group = new Sheddable();
      this.byAddress.set(address, group);
    }
    const state: SocketState = { address, active: 0, counted: true, reserved };
    this.states.set(socket, state);
    this.all.count++;
    group.count++;
    const now = this.now();
    this.all.waiting.set(socket, now);
    group.waiting.set(socket, now);
    socket.once('close', () => this.release(socket));
    if (reserved) {
      setTimeout(() => {
        if (state.counted && state.active === 0) socket.destroy();
      }, RESERVED_REQUEST_MS).unref();
    }
  }

  private handle(req: IncomingMessage, res: ServerResponse, handler: RequestListener): void {
    const socket = req.socket;
    const state = this.states.get(socket);
    if (state) {
      state.active++;
      this.markBusy(socket, state);
      res.once('close', () => {
        state.active--;
        if (state.active === 0 && state.counted && !socket.destroyed) this.markIdle(socket, state);
      });
      if (state.reserved) {
        // A reserved slot serves one probe and is given back at once.
        res.setHeader('Connection', 'close');
        if (!PROBE_PATH.test(req.url ?? '')) {
          res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '5' });
          res.end(JSON.stringify({ error: 'Too many connections; try again shortly' }));
          return;
        }
      }
    }
    handler(req, res);
  }

  /** Closes the first sheddable socket of `group`; false when none can be. */
  private shedFrom(group: Sheddable, graceMs: number): boolean {
    const victim = group.pick(this.now(), graceMs);
    if (!victim) return false;
    this.release(victim);
    victim.destroy();
    return true;
  }

  private markBusy(socket: Socket, state: SocketState): void {
    const group = this.byAddress.get(state.address);
    this.all.idle.delete(socket);
    this.all.waiting.delete(socket);
    group?.idle.delete(socket);
    group?.waiting.delete(socket);
  }

  private markIdle(socket: Socket, state: SocketState): void {
    const group = this.byAddress.get(state.address);
    this.all.idle.add(socket);
    group?.idle.add(socket);
  }

  private release(socket: Socket): void {
    const state = this.states.get(socket);
    if (!state?.counted) return;
    state.counted = false;
    this.states.delete(socket);
    this.markBusy(socket, state);
    this.all.count--;
    const group = this.byAddress.get(state.address);
    if (group && --group.count === 0) this.byAddress.delete(state.address);
  }
}
