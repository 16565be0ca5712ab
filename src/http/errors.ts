import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError } from '../errors.js';
import { isUniqueViolation } from '../store/db.js';

/** Fastify's router default: a path parameter longer than this answers 414. */
const MAX_PARAM_LENGTH = 100;

const pathSegmentTooLong = () => new AppError('VALIDATION_ERROR', `a path segment is longer than ${MAX_PARAM_LENGTH} characters; no identifier is that long`);

/**
 * The same answer when the router found no route for such a path: a wildcard route (the web
 * apps' `/<app>/*`) takes the request the parameter route refused, then hands it back here.
 */
export const overLongSegment = (path: string): AppError | null =>
  path.split('/').some((segment) => segment.length > MAX_PARAM_LENGTH) ? pathSegmentTooLong() : null;

/** A body limit as the messages give it: "4 KB (4096 bytes)". */
export const bodyLimitText = (bytes: number) => `${bytes / 1024} KB (${bytes} bytes)`;

/**
 * Maps anything thrown while serving a request onto the error catalogue; `req` names the
 * route's own body limit in a 413.
 */
export function toAppError(err: unknown, req?: FastifyRequest): AppError {
  if (isAppError(err)) return err;
  const fe = err as Partial<FastifyError>;
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const limit = req?.routeOptions.bodyLimit;
      return new AppError('PAYLOAD_TOO_LARGE', `request body is larger than ${limit ? `this route's limit, ${bodyLimitText(limit)}` : "this route's limit"}`);
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('INVALID_CONTENT_TYPE', 'Content-Type must be application/json');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // 400 like any other over-long identifier (a query value past its maxLength), not Fastify's 414.
      return pathSegmentTooLong();
    case 'FST_ERR_BAD_URL':
      return new AppError('VALIDATION_ERROR', 'the path holds a malformed percent-encoding (such as %E0%A4%A); encode it as UTF-8');
  }
  // Two concurrent creates of one name both pass the service's existence check; the store's
  // unique index decides, and the loser is told what a sequential caller would be told.
  if (isUniqueViolation(err)) return new AppError('CONFLICT', 'a record with this name, code or email already exists (possibly created by a concurrent request)');
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new AppError('VALIDATION_ERROR', fe.message ?? 'bad request', { status: fe.statusCode === 413 ? 413 : 400 });
  }
  return new AppError('INTERNAL_ERROR', 'unexpected server error; quote request_id when you contact support');
}

/**
 * Refused for its size (413) or for having no length (411): the body is left unread, and
 * the connection is closed after the answer instead of reading what may be megabytes, or
 * an endless chunked stream, to keep it alive.
 */
const CLOSES_CONNECTION: ReadonlySet<number> = new Set([411, 413]);

export function sendError(req: FastifyRequest, reply: FastifyReply, err: unknown) {
  const e = toAppError(err, req);
  if (e.status >= 500 && e.code === 'INTERNAL_ERROR') req.log.error({ err }, 'unhandled error');
  req.errorCode = e.code;
  if (CLOSES_CONNECTION.has(e.status)) reply.header('connection', 'close');
  return reply
    .status(e.status)
    .headers(e.headers)
    // Also here: errors met before the onRequest hooks (router errors) get the id too.
    .header('x-request-id', req.id)
    .header('content-type', 'application/json; charset=utf-8')
    .send({ success: false, error: e.code, message: e.message, request_id: req.id });
}
