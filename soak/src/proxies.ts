// Two small HTTP proxies on loopback:
// - the front door: round-robin over the live replicas (a dead one is skipped; a request whose
//   replica dies before answering gets 503 with `x-soak-proxy: upstream-lost`, which a client
//   must treat as "no answer": the request may or may not have run);
// - the RPC proxy between the replicas and the local network, where the soak injects network
//   faults the network itself cannot: connections reset, slow answers, the RPC unavailable for a
//   while, and sendTransaction answers lost after the network accepted the transaction.
import http from 'node:http';
import type { Replica } from './processes.ts';

export class FrontProxy {
  private next = 0;
  /** Requests in flight per replica index (so a SIGTERM can land while a pull is being polled). */
  readonly inflight = new Map<number, number>();
  private server: http.Server | undefined;
  url = '';
  private readonly replicas: Replica[];
  constructor(replicas: Replica[]) {
    this.replicas = replicas;
  }

  async listen(): Promise<void> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    const a = this.server.address();
    this.url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  }

  private pick(): Replica | undefined {
    for (let i = 0; i < this.replicas.length; i++) {
      const r = this.replicas[(this.next + i) % this.replicas.length]!;
      if (r.up) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return r;
      }
    }
    return undefined;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = this.pick();
      const fail = (why: string) => {
        if (res.headersSent) return res.destroy();
        res.writeHead(503, { 'content-type': 'application/json', 'x-soak-proxy': why });
        res.end(JSON.stringify({ error: `soak proxy: ${why}` }));
      };
      if (!target) return fail('no-replica');
      this.inflight.set(target.index, (this.inflight.get(target.index) ?? 0) + 1);
      const done = () => this.inflight.set(target.index, (this.inflight.get(target.index) ?? 1) - 1);
      const up = http.request(
        `${target.url}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: `127.0.0.1` }, agent: false },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
          upRes.on('end', done);
          upRes.on('error', () => {
            done();
            res.destroy();
          });
        },
      );
      up.on('error', () => {
        done();
        fail('upstream-lost');
      });
      up.end(body);
    });
  }

  close(): void {
    this.server?.closeAllConnections();
    this.server?.close();
  }
}

export interface RpcFaultCounts {
  reset: number;
  delayed: number;
  unavailable: number;
  lostSendAnswer: number;
}

export class RpcProxy {
  private server: http.Server | undefined;
  url = '';
  private resetNext = 0;
  private delayNext = 0;
  private delayMs = 0;
  private loseSendAnswers = 0;
  private unavailableUntil = 0;
  readonly hits: RpcFaultCounts = { reset: 0, delayed: 0, unavailable: 0, lostSendAnswer: 0 };
  /** Hashes whose sendTransaction answer was lost after the network accepted it. */
  readonly lostSends: string[] = [];
  enabled = true;
  private readonly target: string;
  constructor(target: string) {
    this.target = target;
  }

  resetConnections(n: number) {
    this.resetNext += n;
  }
  delay(n: number, ms: number) {
    this.delayNext += n;
    this.delayMs = ms;
  }
  loseSendAnswer(n: number) {
    this.loseSendAnswers += n;
  }
  unavailableFor(ms: number) {
    this.unavailableUntil = Math.max(this.unavailableUntil, Date.now() + ms);
  }
  clear() {
    this.resetNext = this.delayNext = this.loseSendAnswers = this.unavailableUntil = 0;
  }

  async listen(): Promise<void> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    const a = this.server.address();
    this.url = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      let method = '';
      try {
        method = String(JSON.parse(body.toString()).method ?? '');
      } catch {}
      if (this.enabled && Date.now() < this.unavailableUntil) {
        this.hits.unavailable++;
        res.writeHead(503, { 'content-type': 'text/plain' });
        return res.end('service unavailable');
      }
      if (this.enabled && this.resetNext > 0) {
        this.resetNext--;
        this.hits.reset++;
        return req.socket.destroy();
      }
      let wait = 0;
      if (this.enabled && this.delayNext > 0) {
        this.delayNext--;
        this.hits.delayed++;
        wait = this.delayMs;
      }
      const lose = this.enabled && method === 'sendTransaction' && this.loseSendAnswers > 0;
      if (lose) this.loseSendAnswers--;
      try {
        const upstream = await fetch(this.target, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const text = await upstream.text();
        if (wait) await new Promise((r) => setTimeout(r, wait));
        if (lose) {
          // The network has the transaction (or refused it); the caller never learns which.
          this.hits.lostSendAnswer++;
          try {
            const hash = JSON.parse(text).result?.hash;
            if (hash) this.lostSends.push(hash);
          } catch {}
          return req.socket.destroy();
        }
        res.writeHead(upstream.status, { 'content-type': 'application/json' });
        res.end(text);
      } catch {
        req.socket.destroy();
      }
    });
  }

  close(): void {
    this.server?.closeAllConnections();
    this.server?.close();
  }
}
