import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a NUL in a header value, a
 * header line without a colon, an unknown method, a garbage request line, headers too large,
 * a timeout) get the same envelope as every other answer, written raw to the socket: there
 * is no request or reply object yet. The connection is closed after it, as Node does.
 */
export function clientErrorHandler(log: FastifyBaseLogger) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    // A reset connection is gone; there is no one to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] = describe(err.code);
    const requestId = randomUUID();
    log.debug({ code: err.code, request_id: requestId }, 'malformed HTTP request refused');
    if (socket.writable) {
      const body = JSON.stringify({ success: false, error: 'VALIDATION_ERROR', message, request_id: requestId });
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n`
          + `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}

function describe(code: string | undefined): [number, string] {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'the request was not received in time; send it again'];
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'the request headers are too large'];
    case 'HPE_INVALID_METHOD':
      return [400, 'malformed HTTP request: unknown method; use GET, POST, PUT, PATCH or DELETE'];
    case 'HPE_INVALID_HEADER_TOKEN':
      return [400, 'malformed HTTP request: a header name or value holds a character HTTP does not allow (such as NUL), or a header line has no colon'];
    default:
      return [400, `malformed HTTP request (${code ?? 'unparseable'}); send a well-formed HTTP/1.1 request`];
  }
}
