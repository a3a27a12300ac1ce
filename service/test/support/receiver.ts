// A real webhook receiver on loopback: verifies every delivery with the `standardwebhooks` library
// (as a merchant's server would), records what arrived, and can be taken down, brought back on the
// same port, made to fail or to answer slowly.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  type: string;
  body: Record<string, any>;
  raw: string;
  headers: Record<string, string>;
  /** Which of the receiver's secrets verified it (indexes into `secrets`); -1 when none did. */
  verifiedBy: number[];
}

export interface Receiver {
  url: string;
  received: Received[];
  /** webhook-id of every request that arrived, answered or not (a sender killed mid-request included). */
  arrivals: string[];
  /** Secrets the receiver knows; set after the endpoint is created. */
  secrets: string[];
  /** Status answered from now on. */
  status: number;
  /** Delay before answering, ms. */
  delayMs: number;
  /** Unique webhook-ids verified with at least one secret. */
  verifiedIds(): string[];
  stop(): Promise<void>;
  start(): Promise<void>;
  waitFor(pred: (r: Received[]) => boolean, timeoutMs?: number): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let server: Server | undefined;
  let port = 0;
  const self: Receiver = {
    url: '',
    received: [],
    arrivals: [],
    secrets: [],
    status: 200,
    delayMs: 0,
    verifiedIds: () => [...new Set(self.received.filter((r) => r.verifiedBy.length > 0).map((r) => r.id))],
    async stop() {
      if (!server) return;
      const s = server;
      server = undefined;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    async start() {
      const s = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
          const verifiedBy = self.secrets.flatMap((secret, i) => {
            try {
              new Webhook(secret).verify(raw, headers);
              return [i];
            } catch {
              return [];
            }
          });
          const body = JSON.parse(raw) as Record<string, any>;
          self.arrivals.push(headers['webhook-id']);
          const status = self.status;
          let gone = false;
          res.on('close', () => {
            if (!res.writableFinished) gone = true;
          });
          setTimeout(() => {
            // Recorded when answered: a delivery cut off by the sender (timeout, or killed) arrived but was never answered.
            // A sender that died leaves a half-closed socket (its FIN arrived): nobody reads this answer.
            if (!gone && !res.destroyed && !req.socket.readableEnded)
              self.received.push({ id: headers['webhook-id'], type: body.type, body, raw, headers, verifiedBy });
            res.writeHead(status).end();
          }, self.delayMs);
        });
      });
      await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', () => resolve()));
      port = (s.address() as AddressInfo).port;
      self.url = `http://127.0.0.1:${port}/hooks`;
      server = s;
    },
    async waitFor(pred, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (!pred(self.received)) {
        if (Date.now() > until)
          throw new Error(
            `receiver: condition not met within ${timeoutMs} ms; got ${self.received.map((r) => `${r.type}:${r.id.slice(0, 8)}`).join(', ')}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  await self.start();
  return self;
}

/** Polls fn until it returns a truthy value. */
export async function eventually<T>(
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 20_000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
