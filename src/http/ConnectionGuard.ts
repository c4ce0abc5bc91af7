// size: one socket budget: admission, shedding and send-rate reaping read and change the same per-address tables
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The connection limits of one listener. */
export interface ConnectionLimits {
  /** Sockets at once on this listener. */
  maxConnections: number;
  /** Sockets at once from one client address (sockets busy sending a response count too). */
  maxConnectionsPerAddress: number;
  /**
   * A socket with response bytes waiting whose client takes none of them for this long is
   * closed: a minimum send rate. Default 30 s.
   */
  sendStallMs?: number;
}

/** How one listener's connection budget stands, for the health probes. */
export interface ConnectionBudget {
  /**
   * True when a new socket found no ordinary slot (all taken, none idle or stalled to shed)
   * within the last 10 s: readers are being refused.
   */
  exhausted: boolean;
  open: number;
  /** Slots for ordinary requests (the rest is reserved for the probes). */
  ordinarySlots: number;
  /** Responses whose client has stopped taking bytes. */
  stalled: number;
  /** Sockets closed so far for sending too slowly (stall timeout, or shed for another address). */
  cutSlowReaders: number;
}

/** Probe paths that may use the reserved connections. */
const PROBE_PATH = /^\/_enclave\/(?:health|ready)(?:[/?]|$)/;
/** A socket admitted to the reserved slice must send its request within this time. */
const RESERVED_REQUEST_MS = 2000;
/** A new socket is not shed for another client's before it had this long to send its request (a probe needs milliseconds). */
const GRACE_BEFORE_SHED_MS = 250;
/** The probes say "exhausted" this long after a socket last found no ordinary slot (a monitor polls only every few seconds). */
const EXHAUSTED_MEMORY_MS = 10_000;
/** Which listener each request came through, so the probes can report on that listener's budget. */
const guardOfRequest = new WeakMap<IncomingMessage, ConnectionGuard>();

/** The connection budget of the listener `req` arrived on, or null for a request that bypassed the guard. */
export function connectionBudgetOf(req: IncomingMessage): ConnectionBudget | null {
  return guardOfRequest.get(req)?.budget() ?? null;
}

interface SocketState {
  address: string;
  /** Requests received and not yet answered. */
  active: number;
  /** False once the socket was shed or closed (its slot is already given back). */
  counted: boolean;
  reserved: boolean;
  /** Completed response bytes and libuv's unwritten bytes at the last look, and when either last moved. */
  accepted: number;
  unwritten: number;
  progressAt: number;
}

/**
 * Bytes libuv still has to hand to the kernel for this socket (`writeQueueSize` of its handle:
 * not in Node's typings, but what `net` itself reads); 0 when the handle is gone.
 */
function unwrittenBytes(socket: Socket): number {
  return (socket as unknown as { _handle?: { writeQueueSize?: number } | null })._handle?.writeQueueSize ?? 0;
}

/** Sockets of one group (one address, or all) that could be closed to make room, oldest first. */
class Sheddable {
  /** Keep-alive sockets between requests. */
  readonly idle = new Set<Socket>();
  /** Sockets that have not finished sending a first request (idle, preconnected or slow headers), with when they connected. */
  readonly waiting = new Map<Socket, number>();
  /** Sockets with a request in progress (being answered, or the answer being sent). */
  readonly busy = new Set<Socket>();
  count = 0;

  /** The socket to close first: an idle keep-alive one, else the longest-waiting new one if it has waited `graceMs`. */
  pick(now: number, graceMs: number): Socket | undefined {
    for (const socket of this.idle) return socket;
    for (const [socket, since] of this.waiting) return now - since >= graceMs ? socket : undefined;
    return undefined;
  }
}

/**
 * Keeps one client, or a crowd of idle or slow sockets, from taking every connection of a
 * listener: a per-address cap (every socket counts, busy or not; a client at its cap first
 * loses its own idle sockets), idle keep-alive and not-yet-used sockets shed first near the
 * global cap, then a stalled response of the address holding the most sockets; a minimum send
 * rate (a response whose client takes no bytes for `sendStallMs` is cut); and a reserved slice
 * of connections that only answers `/_enclave/health` and `/_enclave/ready`, so probes get
 * through — and can say the budget is exhausted — when every other slot is busy. Replaces
 * Node's `server.maxConnections`, which refuses new sockets without ever closing idle ones.
 */
export class ConnectionGuard {
  private readonly states = new Map<Socket, SocketState>();
  private readonly all = new Sheddable();
  private readonly byAddress = new Map<string, Sheddable>();
  private readonly reservedSlots: number;
  private readonly sendStallMs: number;
  /** How long a response must have been stalled before it may be shed for another address's socket. */
  private readonly shedStalledAfterMs: number;
  private exhaustedAt = Number.NEGATIVE_INFINITY;
  private cutSlowReaders = 0;

  constructor(
    private readonly limits: ConnectionLimits,
    /** The clock for the shedding grace and the stall timeout (tests pass their own). */
    private readonly now: () => number = Date.now,
  ) {
    // A small slice: enough for a few probes at once, never most of a small cap.
    this.reservedSlots = Math.min(16, Math.max(1, Math.floor(limits.maxConnections / 8)));
    this.sendStallMs = limits.sendStallMs ?? 30_000;
    this.shedStalledAfterMs = Math.min(this.sendStallMs, 2000);
  }

  /** How often `sweep` runs on a listener: often enough that a stall is cut close to its deadline. */
  get sweepIntervalMs(): number {
    return Math.min(1000, Math.max(50, Math.floor(this.sendStallMs / 4)));
  }

  /** Applies the guard to `server` and returns `handler` wrapped to track requests per socket. */
  attach(server: Server, handler: RequestListener): RequestListener {
    server.on('connection', (socket: Socket) => this.admit(socket));
    const sweeper = setInterval(() => this.sweep(), this.sweepIntervalMs).unref();
    server.once('close', () => clearInterval(sweeper));
    return (req, res) => this.handle(req, res, handler);
  }

  /** Closes every response socket whose client has taken none of its waiting bytes for `sendStallMs`. */
  sweep(): void {
    const now = this.now();
    for (const socket of this.all.busy) {
      const state = this.states.get(socket);
      if (state && this.stalledFor(socket, state, now) >= this.sendStallMs) this.cutSlowReader(socket);
    }
  }

  /** The state of this listener's budget (what the probes report). */
  budget(): ConnectionBudget {
    const now = this.now();
    const ordinarySlots = this.limits.maxConnections - this.reservedSlots;
    let stalled = 0;
    for (const socket of this.all.busy) {
      const state = this.states.get(socket);
      if (state && this.stalledFor(socket, state, now) >= this.shedStalledAfterMs) stalled++;
    }
    return {
      exhausted: now - this.exhaustedAt < EXHAUSTED_MEMORY_MS,
      open: this.all.count,
      ordinarySlots,
      stalled,
      cutSlowReaders: this.cutSlowReaders,
    };
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
    if (
      this.all.count >= this.limits.maxConnections - this.reservedSlots &&
      !this.shedFrom(this.all, GRACE_BEFORE_SHED_MS) &&
      !this.shedStalledOfHeaviest(group?.count ?? 0)
    ) {
      this.exhaustedAt = this.now();
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
    const now = this.now();
    const state: SocketState = { address, active: 0, counted: true, reserved, accepted: 0, unwritten: 0, progressAt: now };
    this.states.set(socket, state);
    this.all.count++;
    group.count++;
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
    guardOfRequest.set(req, this);
    if (state) {
      state.active++;
      state.progressAt = this.now();
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

  /**
   * How long the client of a busy socket has taken none of the bytes waiting for it; 0 while
   * nothing waits (the server is still working on the answer, or the client keeps up).
   * Progress is any byte the kernel took: a write completing (bytes written minus those still
   * queued in the stream) or libuv's own queue shrinking, which moves within a chunk — the site
   * streams 256 KiB chunks, and a reader on a slow link must not wait a whole chunk to count.
   */
  private stalledFor(socket: Socket, state: SocketState, now: number): number {
    const accepted = socket.bytesWritten - socket.writableLength;
    const unwritten = unwrittenBytes(socket);
    if (socket.writableLength === 0 || accepted !== state.accepted || unwritten !== state.unwritten) {
      state.accepted = accepted;
      state.unwritten = unwritten;
      state.progressAt = now;
      return 0;
    }
    return now - state.progressAt;
  }

  /**
   * At the global cap with nothing idle to close: the address holding the most sockets loses
   * one of its stalled responses, if it holds more than the newcomer's address would after
   * admission — so a few addresses of slow readers can't keep every other address out, and two
   * equal clients don't take turns cutting each other.
   */
  private shedStalledOfHeaviest(newcomerCount: number): boolean {
    let heaviest: Sheddable | undefined;
    for (const group of this.byAddress.values()) if (!heaviest || group.count > heaviest.count) heaviest = group;
    if (!heaviest || heaviest.count <= newcomerCount + 1) return false;
    const now = this.now();
    for (const socket of heaviest.busy) {
      const state = this.states.get(socket);
      if (state && this.stalledFor(socket, state, now) >= this.shedStalledAfterMs) {
        this.cutSlowReader(socket);
        return true;
      }
    }
    return false;
  }

  private cutSlowReader(socket: Socket): void {
    this.cutSlowReaders++;
    this.release(socket);
    socket.destroy();
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
    this.all.busy.add(socket);
    group?.busy.add(socket);
  }

  private markIdle(socket: Socket, state: SocketState): void {
    const group = this.byAddress.get(state.address);
    this.all.busy.delete(socket);
    group?.busy.delete(socket);
    this.all.idle.add(socket);
    group?.idle.add(socket);
  }

  private release(socket: Socket): void {
    const state = this.states.get(socket);
    if (!state?.counted) return;
    state.counted = false;
    this.states.delete(socket);
    const group = this.byAddress.get(state.address);
    for (const of of [this.all, group]) {
      of?.idle.delete(socket);
      of?.waiting.delete(socket);
      of?.busy.delete(socket);
    }
    this.all.count--;
    if (group && --group.count === 0) this.byAddress.delete(state.address);
  }
}
