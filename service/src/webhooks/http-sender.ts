// Posts one webhook with node:http(s): no redirect is ever followed (a 3xx is just a failed
// attempt), the whole exchange has timeoutMs, and the response body is drained, never kept. With
// `blockPrivate` (production) the address is checked when the connection is made, after DNS, so a
// name re-pointed at a private address since registration is refused there too.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SendResult, WebhookSender } from '../billing/webhooks/webhooks-port.ts';
import { isPrivateAddress } from './address-rules.ts';

const USER_AGENT = 'soroban-billing-webhooks/1';

const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '', 0);
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad)
      return callback(
        Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }),
        '',
        0,
      );
    if ((options as { all?: boolean }).all)
      return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

export function createHttpSender(o: { blockPrivate: boolean }): WebhookSender {
  return {
    send({ url, headers, body, timeoutMs }) {
      const started = performance.now();
      const took = () => performance.now() - started;
      return new Promise<SendResult>((resolve) => {
        const u = new URL(url);
        const client = u.protocol === 'https:' ? https : http;
        const req = client.request(u, {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': USER_AGENT,
          },
          signal: AbortSignal.timeout(timeoutMs),
          ...(o.blockPrivate ? { lookup: guardedLookup } : {}),
          agent: false,
        });
        req.on('response', (res) => {
          res.resume(); // drained, not kept
          res.on('end', () => resolve({ status: res.statusCode ?? 0, durationMs: took() }));
          res.on('error', () => resolve({ status: res.statusCode ?? 0, durationMs: took() }));
        });
        req.on('error', (err: NodeJS.ErrnoException) => {
          const why =
            err.name === 'AbortError' || err.name === 'TimeoutError'
              ? `timed out after ${timeoutMs} ms`
              : err.code
                ? `${err.code}: ${err.message}`
                : err.message;
          resolve({ error: why, durationMs: took() });
        });
        req.end(body);
      });
    },
  };
}
