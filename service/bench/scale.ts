// Item 5, scale: does GET /plans/{id} (and a page of due subscriptions) cost the same with
// 100,000 plans and 1,000,000 subscriptions as with 1,000 rows, and does the service's memory
// stay flat under a long load? Runs in its own database on the bench's PostgreSQL server, with a
// fresh service (whose migrations create the schema); rows are bulk-loaded with SQL.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { runWrk } from './load.ts';
import { type FigureResult, type MeasureOptions, measure, waitQuiet } from './measure.ts';
import type { Options } from './options.ts';
import type { BenchPg } from './pg-setup.ts';
import { onCleanup, rssKb } from './procs.ts';
import { tableMarkdown, writeSection } from './report.ts';
import { startService } from './servers.ts';
import { rssChart } from './svg.ts';

const BENCHMARKS_MD = fileURLToPath(new URL('../../BENCHMARKS.md', import.meta.url));

// The service's own read behind GET /plans/{id} (storage/repos/plans-repo.ts, FIND_OFFERED).
const PLAN_BY_ID = `SELECT p.id, p.merchant_id, p.name, p.token_amount, p.interval_seconds, p.created_at,
       m.name AS merchant_name, m.wallet_address AS merchant_wallet_address
  FROM plans p JOIN merchants m ON m.id = p.merchant_id
 WHERE p.id = $1 AND m.deleted_at IS NULL`;

// A page of due work across all merchants, as the collector reads it (storage/repos/
// collection-repo.ts claimDue, without the lease update): the generated collect_at, soonest first,
// served by subscriptions_collect_idx (migration 0007).
const DUE_PAGE = `SELECT id FROM subscriptions
 WHERE collect_at <= now() AND (collector_lease_until IS NULL OR collector_lease_until < now())
 ORDER BY collect_at, id
 LIMIT 50`;

// The same page for one merchant, as the service lists it (GET /merchants/{id}/subscriptions
// ?status=active&due_before=…, storage/repos/subscriptions-repo.ts), which its migration 0003
// indexes with (merchant_id, next_billing_date, id).
const MERCHANT_DUE_PAGE = `SELECT id, plan_id, customer_wallet_address, status, next_billing_date, created_at, updated_at
  FROM subscriptions
 WHERE merchant_id = $1 AND status = 'active' AND next_billing_date <= now()
 ORDER BY next_billing_date, id
 LIMIT 51`;

// A wallet-shaped text (G + 55 base32 characters) that is unique per n: the table's CHECK wants
// the shape only. md5 is hex; mapping 0, 1, 8, 9 to letters keeps it inside [A-Z2-7].
const wallet = (n: string) =>
  `'G' || substr(translate(upper(md5(${n}::text) || md5('w' || ${n}::text)), '0189', 'WXYZ'), 1, 55)`;

/** Adds merchants, plans and subscriptions numbered [from, to) so the database grows in steps. */
async function load(c: pg.Client, m: [number, number], p: [number, number], s: [number, number]): Promise<void> {
  await c.query(`SET synchronous_commit = off`); // bulk load: one commit at the end anyway
  await c.query(
    `INSERT INTO merchants (name, wallet_address) SELECT 'Scale merchant ' || i, ${wallet("'m' || i")}
       FROM generate_series($1::int, $2::int - 1) AS i`,
    m,
  );
  // Every merchant has a stored signing key (a placeholder ciphertext: the bench never opens it),
  // so its subscriptions are the collector's (autocollect, set by the insert trigger).
  await c.query(
    `INSERT INTO signing_keys (merchant_id, public_key, kek_id, ciphertext)
     SELECT id, wallet_address, 'bench', 'x' FROM merchants WHERE name LIKE 'Scale merchant %'
     ON CONFLICT (merchant_id) DO NOTHING`,
  );
  // Plans spread over all merchants, subscriptions over all plans; ids are random uuids, so the
  // primary-key index is as scattered as it is in production.
  await c.query(
    `WITH ms AS (SELECT array_agg(id ORDER BY id) AS a FROM merchants WHERE name LIKE 'Scale merchant %')
     INSERT INTO plans (merchant_id, name, token_amount, interval_seconds, created_at)
     SELECT ms.a[1 + i % cardinality(ms.a)], 'Scale plan ' || i, 1000000 + i, 86400 * (1 + i % 30),
            now() - (i % 1000) * interval '1 hour'
       FROM ms, generate_series($1::int, $2::int - 1) AS i`,
    p,
  );
  // next_billing_date spread over 30 days either side of now (about half due), 10% past_due.
  await c.query(
    `WITH ps AS (SELECT array_agg(id ORDER BY id) AS a FROM plans WHERE name LIKE 'Scale plan %')
     INSERT INTO subscriptions (plan_id, customer_wallet_address, status, next_billing_date)
     SELECT ps.a[1 + i % cardinality(ps.a)], ${wallet("'s' || i")},
            CASE WHEN i % 10 = 0 THEN 'past_due' ELSE 'active' END,
            now() + ((i::bigint * 7919) % 5184000 - 2592000) * interval '1 second'
       FROM ps, generate_series($1::int, $2::int - 1) AS i`,
    s,
  );
  await c.query(`VACUUM ANALYZE merchants, plans, subscriptions`);
}

const NAMES = new Map([
  [PLAN_BY_ID, 'plan_by_id'],
  [DUE_PAGE, 'due_page'],
  [MERCHANT_DUE_PAGE, 'merchant_due_page'],
]);

async function explain(c: pg.Client, sql: string, params: unknown[] = []): Promise<string> {
  const r = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
  return r.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
}

/** Median and max of a query run n times in a row (the database's time seen from the client). */
async function timeQuery(
  c: pg.Client,
  sql: string,
  params: unknown[],
  n: number,
): Promise<{ p50: number; max: number }> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await c.query({ text: sql, values: params, name: `bench_${NAMES.get(sql)}` });
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: ms[Math.floor(n / 2)], max: ms[n - 1] };
}

const count = async (c: pg.Client, t: string) => Number((await c.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);

interface Step {
  label: string;
  rows: string;
  http: FigureResult[];
  planMs: { p50: number; max: number };
  dueMs: { p50: number; max: number };
  merchantDueMs: { p50: number; max: number };
  planPlan: string;
  duePlan: string;
  merchantDuePlan: string;
}

export async function runScale(o: Options, bpg: BenchPg, log: (s: string) => void): Promise<void> {
  await bpg.sql(`CREATE DATABASE billing_scale`);
  const url = bpg.url.replace(/\/billing$/, '/billing_scale');
  const svc = await startService({ databaseUrl: url, env: { NODE_ENV: 'production', DB_POOL_SIZE: '10' } });
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  onCleanup(() => c.end());
  const mo: MeasureOptions = o;

  const step = async (label: string): Promise<Step> => {
    const rows = `${(await count(c, 'merchants')).toLocaleString('en')} merchants, ${(await count(c, 'plans')).toLocaleString('en')} plans, ${(await count(c, 'subscriptions')).toLocaleString('en')} subscriptions`;
    // 1,000 plan ids drawn at random from the whole table, so lookups touch all of the index.
    const ids = (await c.query<{ id: string }>(`SELECT id FROM plans ORDER BY random() LIMIT 1000`)).rows.map(
      (r) => r.id,
    );
    // The merchant with the most subscriptions, for the due page through the API.
    const [{ merchant_id: mid }] = (
      await c.query<{ merchant_id: string }>(
        `SELECT merchant_id FROM subscriptions GROUP BY merchant_id ORDER BY count(*) DESC LIMIT 1`,
      )
    ).rows;
    const duePath = `/merchants/${mid}/subscriptions?status=active&due_before=${encodeURIComponent(new Date().toISOString())}&limit=50`;
    log(`scale: ${label}: ${rows}`);
    const http = await measure(
      [
        {
          id: `scale.get-plan.${label}`,
          endpoint: 'GET /plans/{id}',
          server: `service, ${label}`,
          group: 'service-pg',
          base: svc.base,
          pid: svc.proc.pid,
          load: async () => ({ kind: 'cycle', method: 'GET', paths: ids.map((id) => `/plans/${id}`) }),
        },
        {
          id: `scale.due-page.${label}`,
          endpoint: 'GET /merchants/{id}/subscriptions?status=active&due_before=now&limit=50',
          server: `service, ${label}`,
          group: 'service-pg',
          base: svc.base,
          pid: svc.proc.pid,
          load: async () => ({ kind: 'static', method: 'GET', path: duePath }),
        },
      ],
      mo,
      log,
    );
    return {
      label,
      rows,
      http,
      planMs: await timeQuery(c, PLAN_BY_ID, [ids[0]], 200),
      dueMs: await timeQuery(c, DUE_PAGE, [], 50),
      merchantDueMs: await timeQuery(c, MERCHANT_DUE_PAGE, [mid], 200),
      planPlan: await explain(c, PLAN_BY_ID, [ids[1]]),
      duePlan: await explain(c, DUE_PAGE),
      merchantDuePlan: await explain(c, MERCHANT_DUE_PAGE, [mid]),
    };
  };

  let t = performance.now();
  await load(c, [0, 10], [0, 1000], [0, 1000]);
  log(`scale: small data set loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const small = await step('1k rows');
  t = performance.now();
  await load(c, [10, 1000], [1000, 100_000], [1000, 1_000_000]);
  const loadS = (performance.now() - t) / 1000;
  log(`scale: bulk load to 1M subscriptions took ${loadS.toFixed(1)} s`);
  const large = await step('1M rows');

  // Would an index make the global due page independent of table size? Only asked when its
  // plan at 1M rows scans the table; created in this throw-away database, then dropped again.
  const indexes = (
    await c.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE tablename = 'subscriptions'`)
  ).rows.map((r) => r.indexdef);
  const hasDueIndex = !/Seq Scan on subscriptions/.test(large.duePlan);
  let whatIf = '';
  if (!hasDueIndex) {
    await c.query(`CREATE INDEX bench_due_idx ON subscriptions (next_billing_date, id) WHERE status = 'active'`);
    await c.query(`ANALYZE subscriptions`);
    const ms = await timeQuery(c, DUE_PAGE, [], 50);
    whatIf = `With \`CREATE INDEX … ON subscriptions (next_billing_date, id) WHERE status = 'active'\` (created by the bench in its throw-away database, not in the service's migrations) the page across all merchants takes ${ms.p50.toFixed(2)} ms (max ${ms.max.toFixed(2)} ms):

\`\`\`
${await explain(c, DUE_PAGE)}
\`\`\``;
    await c.query(`DROP INDEX bench_due_idx`);
  }

  // Memory under a long load, on a fresh copy of the service (so the curve starts at start-up,
  // not after the figures above): RSS from /proc and V8's heap in use from the service's own
  // /metrics (prom-client default metrics), every second while wrk drives GET /plans/{id}.
  await svc.proc.stop();
  const fresh = await startService({ databaseUrl: url, env: { NODE_ENV: 'production', DB_POOL_SIZE: '10' } });
  const ids = (await c.query<{ id: string }>(`SELECT id FROM plans ORDER BY random() LIMIT 10000`)).rows.map(
    (r) => r.id,
  );
  await waitQuiet(log);
  log(`scale: ${o.rssSeconds} s load on GET /plans/{id}, sampling the service's memory every second`);
  const mem = await sampleMemory(fresh.base, fresh.proc.pid, () =>
    runWrk(
      fresh.base,
      { kind: 'cycle', method: 'GET', paths: ids.map((id) => `/plans/${id}`) },
      {
        seconds: o.rssSeconds,
        connections: o.connections,
        threads: o.threads,
      },
    ),
  );
  const rssLoad = mem.result;
  await fresh.proc.stop();
  const rss = mem.points.map((p) => [p.t, p.rss] as [number, number]);
  const heap = mem.points.filter((p) => p.heap !== undefined).map((p) => [p.t, p.heap!] as [number, number]);
  writeFileSync(
    join(o.results, 'rss.svg'),
    rssChart(
      [
        { label: 'RSS', points: rss },
        { label: 'V8 heap used', points: heap },
      ],
      `Service memory during ${o.rssSeconds} s of GET /plans/{id} (1M-row database, fresh process)`,
    ),
  );
  const at = (xs: Array<[number, number]>, f: number) =>
    xs.length ? xs[Math.min(xs.length - 1, Math.round(f * (xs.length - 1)))][1] : NaN;
  const peak = Math.max(...rss.map(([, mb]) => mb));
  writeFileSync(join(o.results, 'scale.json'), JSON.stringify({ small, large, memory: mem.points, loadS }));

  const rel = (i: number) => {
    const a = small.http[i].summary;
    const b = large.http[i].summary;
    return a && b ? `${((b.rps / a.rps) * 100).toFixed(0)}%` : 'not measured';
  };
  const md = `## Scale: 1,000 rows against 1,000,000 subscriptions / 100,000 plans

Command: \`npm run bench -- --scale\` (\`--scale-only\` skips the HTTP figures). A fresh database on the same
PostgreSQL server, schema from the service's migrations; rows bulk-loaded with \`INSERT … SELECT … generate_series\`
(1M subscriptions and 99k plans in ${loadS.toFixed(0)} s, then \`VACUUM ANALYZE\`). GET figures cycle through 1,000 plan ids
drawn at random from the whole table; same layout as the HTTP figures (${o.runs} × ${o.durationS} s).

${tableMarkdown([...small.http, ...large.http])}

Throughput at 1M rows against 1k rows: GET /plans/{id} ${rel(0)}, the merchant's due page ${rel(1)}. The due page
is the merchant with the most subscriptions (about 1,000 at 1M rows), \`status=active&due_before=<now>&limit=50\`.

| query, seen from a client on the same machine | ${small.label}: p50 (max) | ${large.label}: p50 (max) |
|---|---|---|
| plan by id (the service's join with its merchant), 200 runs | ${small.planMs.p50.toFixed(3)} (${small.planMs.max.toFixed(2)}) ms | ${large.planMs.p50.toFixed(3)} (${large.planMs.max.toFixed(2)}) ms |
| one merchant's due page (the service's listing query), 200 runs | ${small.merchantDueMs.p50.toFixed(3)} (${small.merchantDueMs.max.toFixed(2)}) ms | ${large.merchantDueMs.p50.toFixed(3)} (${large.merchantDueMs.max.toFixed(2)}) ms |
| the collector's due page across all merchants (\`collect_at <= now() ORDER BY collect_at, id LIMIT 50\`, subscriptions_collect_idx), 50 runs | ${small.dueMs.p50.toFixed(2)} (${small.dueMs.max.toFixed(2)}) ms | ${large.dueMs.p50.toFixed(2)} (${large.dueMs.max.toFixed(2)}) ms |

Indexes on subscriptions: ${indexes.map((d) => `\`${d.replace(/^CREATE (UNIQUE )?INDEX /, '').replace(/ ON public\.subscriptions USING btree/, '')}\``).join(', ')}.
${hasDueIndex ? '' : '**No index serves the due page across all merchants**: the service indexes due subscriptions per merchant (its listing), so a page over all merchants is a full scan and a sort of every due row at 1M rows, and its time grows with the table. It matters once a worker collects due subscriptions across merchants (issue 6 item 4, product plan item 3).'}

<details><summary>EXPLAIN (ANALYZE, BUFFERS): plan by id, ${small.label} and ${large.label}</summary>

\`\`\`
${small.planPlan}
\`\`\`

\`\`\`
${large.planPlan}
\`\`\`
</details>

<details><summary>EXPLAIN (ANALYZE, BUFFERS): one merchant's due page, ${small.label} and ${large.label}</summary>

\`\`\`
${small.merchantDuePlan}
\`\`\`

\`\`\`
${large.merchantDuePlan}
\`\`\`
</details>

<details><summary>EXPLAIN (ANALYZE, BUFFERS): due page across all merchants, ${small.label} and ${large.label}</summary>

\`\`\`
${small.duePlan}
\`\`\`

\`\`\`
${large.duePlan}
\`\`\`
</details>

${whatIf}

### Memory under ${o.rssSeconds} s of load

GET /plans/{id} at ${o.connections} connections on the 1M-row database, a freshly started service, ${rssLoad.rps.toFixed(0)} req/s, ${rssLoad.requests.toLocaleString('en')} requests.

| | start | ¼ | middle | ¾ | end | peak | lowest in each third |
|---|---|---|---|---|---|---|---|
| RSS, MB | ${[0, 0.25, 0.5, 0.75, 1].map((f) => at(rss, f).toFixed(0)).join(' | ')} | ${peak.toFixed(0)} | ${troughs(rss).join(' → ')} |
| V8 heap used, MB | ${[0, 0.25, 0.5, 0.75, 1].map((f) => at(heap, f).toFixed(0)).join(' | ')} | ${Math.max(...heap.map(([, mb]) => mb)).toFixed(0)} | ${troughs(heap).join(' → ')} |

Heap in use climbs between major collections (garbage waits for the next mark-compact) and RSS moves in steps as V8
takes or returns heap pages, so single samples say little. What a leak changes is the floor: the lowest heap in
each third of the run, after the collections in it, would keep rising.

![rss](service/bench/results/rss.svg)
`;
  console.log(`\n${md}`);
  if (o.write) writeSection(BENCHMARKS_MD, 'scale', md);
}

interface MemPoint {
  t: number; // seconds since the load started
  rss: number; // MB
  heap?: number; // MB of V8 heap in use, from /metrics
}

async function heapUsedMb(base: string): Promise<number | undefined> {
  try {
    const text = await (await fetch(`${base}/metrics`, { signal: AbortSignal.timeout(900) })).text();
    const m = /^nodejs_heap_size_used_bytes\s+(\S+)/m.exec(text);
    return m ? Number(m[1]) / 2 ** 20 : undefined;
  } catch {
    return undefined;
  }
}

async function sampleMemory<T>(
  base: string,
  pid: number,
  run: () => Promise<T>,
): Promise<{ result: T; points: MemPoint[] }> {
  const points: MemPoint[] = [];
  const t0 = performance.now();
  const sample = async () => {
    const kb = rssKb(pid);
    const heap = await heapUsedMb(base);
    if (kb !== undefined) points.push({ t: (performance.now() - t0) / 1000, rss: kb / 1024, heap });
  };
  await sample();
  const timer = setInterval(() => void sample(), 1000);
  const result = await run();
  clearInterval(timer);
  await sample();
  return { result, points };
}

/** The lowest value in each third of the run, in MB: after a major GC, what is really retained. */
function troughs(points: Array<[number, number]>): string[] {
  if (points.length < 3) return [];
  const end = points[points.length - 1][0];
  return [0, 1, 2].map((k) => {
    const part = points.filter(([t]) => t >= (end * k) / 3 && t <= (end * (k + 1)) / 3).map(([, v]) => v);
    return part.length ? Math.min(...part).toFixed(0) : '—';
  });
}
