// What Fastify itself logs per request. Its defaults log the request object twice (incoming and
// completed) with the full URL, query string included; a query string could carry a secret and
// two lines per request cost throughput. We log one line at completion: method, path, status, time.
import { LogController } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const pathOf = (url: string) => url.split('?', 1)[0];

export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      path: pathOf(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }

  // The not-found handler answers in our shape; the completion line already records the 404.
  override routeNotFound(): void {}

  override writeHeadError(error: Error, _request: FastifyRequest, reply: FastifyReply): void {
    reply.log.warn({ err: error }, 'could not write response headers');
  }
}
