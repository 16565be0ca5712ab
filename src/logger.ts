import pino, { type Logger } from 'pino';

/** Paths never written to a log line, whatever a caller passes in. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]', 'req.headers["x-signature"]', 'req.headers.authorization', 'req.headers.cookie',
  '*.secret', '*.apiSecret', '*.api_secret', '*.password', '*.masterKey', '*.secret_enc', '*.credentials',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}
