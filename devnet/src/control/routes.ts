// HTTP routes of the control API under /control: JSON in, JSON out, never JSON-RPC.
import { parseFault } from '../ledger/faults.ts';
import { parseTraffic } from './traffic.ts';
import { parseCongestion } from './congestion.ts';
import { parseLimit, parseTrustlineRequest } from './trustlines.ts';
import type { DevnetControl } from './controls.ts';

type Body = Record<string, unknown>;
type Route = { method: 'GET' | 'POST'; run: (c: DevnetControl, body: Body) => unknown };

const routes: Record<string, Route> = {
  '/control/fund': { method: 'POST', run: (c, b) => c.fund(String(b.address ?? ''), parseFund(b)) },
  '/control/trustline': { method: 'POST', run: (c, b) => c.trustline(parseTrustlineRequest(b)) },
  '/control/mint': { method: 'POST', run: (c, b) => c.mint(String(b.to ?? ''), String(b.amount ?? '')) },
  '/control/advance-time': { method: 'POST', run: (c, b) => c.advanceTime(Number(b.seconds)) },
  '/control/close-ledger': { method: 'POST', run: (c) => c.closeLedger() },
  '/control/advance-ledgers': { method: 'POST', run: (c, b) => c.advanceLedgers(Number(b.count)) },
  '/control/congestion': { method: 'POST', run: (c, b) => c.congestion(parseCongestion(b)) },
  '/control/network-config': { method: 'GET', run: (c) => c.networkConfig() },
  '/control/pause': { method: 'POST', run: (c) => c.pause() },
  '/control/resume': { method: 'POST', run: (c) => c.resume() },
  '/control/faults': { method: 'POST', run: (c, b) => c.fault(parseFault(b)) },
  '/control/faults/clear': { method: 'POST', run: (c) => c.clearFaults() },
  '/control/traffic': { method: 'POST', run: (c, b) => c.traffic(parseTraffic(b)) },
  '/control/reset': { method: 'POST', run: (c) => c.reset() },
  '/control/snapshot': { method: 'POST', run: (c) => c.snapshot() },
  '/control/restore': { method: 'POST', run: (c, b) => c.restore(String(b.id ?? '')) },
  '/control/state': { method: 'GET', run: (c) => c.state() },
  '/control/transactions': { method: 'GET', run: (c) => c.transactions() },
  '/control/rpc-calls': { method: 'GET', run: (c) => c.rpcCalls() },
};

function parseFund(b: Body): { trustline?: boolean; limit?: bigint } {
  if (b.trustline !== undefined && typeof b.trustline !== 'boolean') throw new Error('trustline must be true or false');
  const limit = parseLimit(b.limit);
  if (b.trustline === false && limit !== undefined) throw new Error('limit needs trustline: true');
  return {
    ...(b.trustline !== undefined && { trustline: b.trustline as boolean }),
    ...(limit !== undefined && { limit }),
  };
}

export type ControlReply = { status: number; body: unknown };

export function handleControl(control: DevnetControl, method: string, path: string, raw: string): ControlReply {
  const route = routes[path.replace(/\/+$/, '')];
  if (!route) return { status: 404, body: { error: `unknown control endpoint ${path}` } };
  if (route.method !== method) return { status: 405, body: { error: `use ${route.method} for ${path}` } };
  let body: Body = {};
  if (method === 'POST' && raw.trim() !== '') {
    try {
      body = JSON.parse(raw) as Body;
    } catch {
      return { status: 400, body: { error: 'body must be JSON' } };
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return { status: 400, body: { error: 'body must be a JSON object' } };
  }
  try {
    return { status: 200, body: route.run(control, body) };
  } catch (e) {
    return { status: 400, body: { error: e instanceof Error ? e.message : String(e) } };
  }
}
