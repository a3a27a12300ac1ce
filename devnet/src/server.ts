// The HTTP front: JSON-RPC at the root path (like a real RPC URL), the control API
// under /control. Listens where it is told; the CLI and startDevnet default to 127.0.0.1.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { DevnetControl } from './control/controls.ts';
import { handleControl } from './control/routes.ts';
import type { Network } from './network/network.ts';
import { handleRpcBody } from './rpc/jsonrpc.ts';
import { rpcMethods } from './rpc/methods/index.ts';

const MAX_BODY = 512 * 1024;

export function createDevnetServer(net: Network, control: DevnetControl): Server {
  return createServer((req, res) => {
    readBody(req)
      .then((raw) => route(net, control, req, res, raw))
      .catch(() => send(res, 413, undefined));
  });
}

function route(net: Network, control: DevnetControl, req: IncomingMessage, res: ServerResponse, raw: string): void {
  const path = new URL(req.url ?? '/', 'http://devnet').pathname;
  if (req.method === 'OPTIONS') return send(res, 204, undefined);
  if (path === '/control' || path.startsWith('/control/')) {
    const reply = handleControl(control, req.method ?? 'GET', path, raw);
    return send(res, reply.status, reply.body);
  }
  if (path !== '/') return send(res, 404, { error: 'not found: JSON-RPC is served at /' });
  if (req.method !== 'POST') return send(res, 405, undefined);
  const type = req.headers['content-type'] ?? '';
  if (!type.includes('application/json')) return send(res, 415, undefined);
  const reply = handleRpcBody(net, rpcMethods, raw);
  return reply === undefined ? send(res, 204, undefined) : send(res, 200, reply);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const headers: Record<string, string> = {
    'access-control-allow-origin': '*',
    'access-control-allow-headers': '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
  };
  if (body === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
