import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, errorBody } from './errors';

const ANSWERS: Record<string, AppError> = {
  HPE_HEADER_OVERFLOW: new AppError('headers_too_large', 'request line or headers too large'),
  ERR_HTTP_REQUEST_TIMEOUT: new AppError('request_timeout', 'request took too long to arrive'),
};
const BAD_REQUEST = new AppError('bad_request', 'malformed HTTP request');

/**
 * Answers a request Node cannot parse (headers or URL past the 16 KiB limit, malformed syntax, too
 * slow to arrive) with a JSON error, then closes politely. Node's default answer destroys the socket
 * at once: with the rest of a 32 KiB request line still unread, the kernel sends a reset that can
 * reach the client before the 431, which then sees ECONNRESET instead of an answer. Here the answer
 * is followed by a FIN, what the client still sends is read and dropped, and the socket is destroyed
 * after `lingerMs` at the latest.
 */
export function answerClientErrors(server: Server, lingerMs = 2000): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const answer = (err.code && ANSWERS[err.code]) || BAD_REQUEST;
    const body = JSON.stringify(errorBody(answer.code, answer.message));
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    socket.removeAllListeners('data');
    socket.on('data', () => undefined);
    socket.resume();
    setTimeout(() => socket.destroy(), lingerMs).unref();
  });
}
