import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * The structured JSON logger. Authorization headers and anything named like a secret are
 * redacted by path, so a stray `logger.info({ headers })` can't leak a key.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'enclave' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'headers.authorization',
          'req.headers.authorization',
          'key',
          '*.key',
          'secret',
          '*.secret',
          'sig',
          '*.sig',
        ],
        censor: 'REDACTED',
      },
    },
    destination,
  );
}
