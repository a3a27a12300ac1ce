// A loopback HTTP stand-in between the service and the local network's JSON-RPC, to make the RPC
// misbehave the ways real ones do: no answer at all (a black-holed host), an answer lost after the
// request was forwarded (the network has the transaction, the client never hears), or an HTTP
// error from a gateway in front of it. Everything else is forwarded byte for byte.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode =
  | { kind: 'pass' }
  | { kind: 'hang' }
  | { kind: 'lose-answer'; method: string }
  | { kind: 'status'; status: number };

export interface RpcProxy {
  url: string;
  /** JSON-RPC methods seen, in order. */
  calls: string[];
  mode: ProxyMode;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });

export async function startRpcProxy(target: string, path = '/'): Promise<RpcProxy> {
  const proxy: RpcProxy = { url: '', calls: [], mode: { kind: 'pass' }, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const method = String((JSON.parse(body.toString() || '{}') as { method?: unknown }).method);
    proxy.calls.push(method);
    const mode = proxy.mode;
    if (mode.kind === 'hang') return; // never answer
    if (mode.kind === 'status') return void res.writeHead(mode.status).end();
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const answer = Buffer.from(await upstream.arrayBuffer());
    if (mode.kind === 'lose-answer' && mode.method === method) return; // forwarded, never answered
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
