// The figures of issue 6 item 2: five endpoints on the service (on PostgreSQL and on PGlite)
// and the reference servers, each as a load wrk can send.
import type { Load } from './load.ts';
import type { Figure, Group } from './measure.ts';
import { type Seeded, createPlans, planBody } from './seed.ts';
import type { Server } from './servers.ts';

/** Requests per second no server here reaches; sizes the unique pairs for POST /subscriptions. */
const MAX_RPS = 30_000;

export function serviceFigures(prefix: string, group: Group, srv: Server, seeded: Seeded, wallets: string[]): Figure[] {
  const f = (id: string, endpoint: string, load: (s: number) => Promise<Load> | Load): Figure => ({
    id: `${prefix}.${id}`,
    endpoint,
    server: srv.name,
    group,
    base: srv.base,
    pid: srv.proc.pid,
    load: async (s) => load(s),
  });
  return [
    f('get-plan', 'GET /plans/{id}', () => ({
      kind: 'cycle',
      method: 'GET',
      paths: seeded.planIds.map((id) => `/plans/${id}`),
    })),
    // The same reads with the merchant's API key: what a key costs on the hot path (cached
    // look-up, coalesced last_used_at), next to get-plan without one.
    ...(seeded.apiKey
      ? [
          f('get-plan-key', 'GET /plans/{id} with an API key', () => ({
            kind: 'cycle',
            method: 'GET',
            paths: seeded.planIds.map((id) => `/plans/${id}`),
            headers: { Authorization: `Bearer ${seeded.apiKey}` },
          })),
        ]
      : []),
    f('get-sub', 'GET /subscriptions/{id}', () => ({
      kind: 'cycle',
      method: 'GET',
      paths: seeded.subscriptionIds.map((id) => `/subscriptions/${id}`),
    })),
    f('list-subs', 'GET /merchants/{id}/subscriptions?limit=50', () => ({
      kind: 'static',
      method: 'GET',
      path: `/merchants/${seeded.merchantId}/subscriptions?limit=50`,
    })),
    f('post-plan', 'POST /plans', () => ({
      kind: 'static',
      method: 'POST',
      path: '/plans',
      body: JSON.stringify(planBody(seeded.merchantId, 0)),
    })),
    f('post-sub', 'POST /subscriptions', async (s) => ({
      kind: 'subscribe',
      path: '/subscriptions',
      // Fresh plans each run, so no (plan, wallet) pair repeats within or across runs.
      planIds: await createPlans(srv.base, seeded.merchantId, Math.max(1, Math.ceil((s * MAX_RPS) / wallets.length))),
      wallets,
    })),
  ];
}

export interface References {
  prepared?: Server;
  plain?: Server;
  express?: Server;
  insert?: Server;
  hello?: Server;
  pglite?: Server;
  list?: Server;
}

export function referenceFigures(refs: References, planIds: string[], merchantId: string): Figure[] {
  const get: Load = { kind: 'cycle', method: 'GET', paths: planIds.map((id) => `/plans/${id}`) };
  const out: Figure[] = [];
  const add = (id: string, server: string, endpoint: string, srv: Server | undefined, load: Load) => {
    if (srv)
      out.push({
        id: `ref.${id}`,
        endpoint,
        server,
        group: 'reference',
        base: srv.base,
        pid: srv.proc.pid,
        load: async () => load,
      });
  };
  add('fastify-pg-prep', 'ref: Fastify+pg, prepared', 'GET /plans/{id}', refs.prepared, get);
  add('fastify-pg', 'ref: Fastify+pg', 'GET /plans/{id}', refs.plain, get);
  add('express-pg', 'ref: Express 5+pg', 'GET /plans/{id}', refs.express, get);
  add('fastify-pg-insert', 'ref: Fastify+pg+Zod insert', 'POST /plans', refs.insert, {
    kind: 'static',
    method: 'POST',
    path: '/plans',
    body: JSON.stringify(planBody(merchantId, 0)),
  });
  add('fastify-hello', 'ref: Fastify hello world', 'GET /', refs.hello, { kind: 'static', method: 'GET', path: '/' });
  add('fastify-pglite', 'ref: Fastify+PGlite in-process', 'GET /plans/{id}', refs.pglite, get);
  add(
    'fastify-pg-list',
    'ref: Fastify+pg, prepared, 50 rows',
    'GET /merchants/{id}/subscriptions?limit=50',
    refs.list,
    {
      kind: 'static',
      method: 'GET',
      path: `/merchants/${merchantId}/subscriptions?limit=50`,
    },
  );
  return out;
}
