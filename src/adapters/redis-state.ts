import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

/**
 * Logs Redis going away and coming back, once each rather than at every reconnect attempt:
 * without it the process still serves, its rate limits counted per process (degraded).
 */
export function logRedisState(redis: Redis, logger: Logger): void {
  let lost = false;
  let lastError: string | null = null;
  redis.on('error', (err: Error) => {
    lastError = err.message;
    logger.debug({ err: err.message }, 'redis error');
  });
  redis.on('close', () => {
    if (lost) return;
    lost = true;
    logger.warn({ err: lastError }, 'redis lost: rate limits are counted per process until it is back; /readyz reports it degraded');
  });
  redis.on('ready', () => {
    if (!lost) return;
    lost = false;
    lastError = null;
    logger.info('redis back: rate limits are shared again');
  });
}
