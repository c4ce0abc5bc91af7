/** One problem in a request, shown to the client as `{ message }` inside `details`. */
export interface ErrorDetail {
  message: string;
}

/**
 * The single error vocabulary of the appliance. Domain code throws these; exactly one HTTP
 * middleware turns them into the spec's `{error, details?}` body. A 4xx message is written
 * for the client; a 5xx message is logged but never shown.
 */
export class AppError extends Error {
  readonly status: number;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;
  /** Extra top-level fields for the body, e.g. `jobId` on a 409 for a busy domain. */
  readonly extra?: Record<string, unknown>;

  constructor(
    status: number,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string>; extra?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = status;
    this.details = options.details;
    this.headers = options.headers;
    this.extra = options.extra;
  }

  /** 400 with one detail line per problem found. */
  static invalid(details: ErrorDetail[], message = 'Invalid request'): AppError {
    return new AppError(400, message, { details });
  }
  static badRequest(message: string): AppError {
    return new AppError(400, message);
  }
  static unauthorized(message = 'Missing or invalid admin key'): AppError {
    return new AppError(401, message, { headers: { 'WWW-Authenticate': 'Bearer' } });
  }
  static forbidden(message: string): AppError {
    return new AppError(403, message);
  }
  static notFound(message = 'Not found'): AppError {
    return new AppError(404, message);
  }
  static conflict(message: string, extra?: Record<string, unknown>): AppError {
    return new AppError(409, message, { extra });
  }
  static unavailable(message: string): AppError {
    return new AppError(503, message);
  }
  /** 507: the data volume is full; nothing was written. */
  static insufficientStorage(message = 'The data volume is full; nothing was written'): AppError {
    return new AppError(507, message);
  }
}

/** True for an error carrying an HTTP-style status meant for the client (4xx). */
export function isClientError(err: unknown): err is { status: number; message: string } {
  const status = (err as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
