// Tables, ratios against the targets of issue 6, and BENCHMARKS.md. The bench owns the blocks
// between its <!-- bench:NAME --> markers and rewrites only those, so other sections (the pull
// pipeline, notes written by hand) survive a re-run.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type FigureResult, median } from './measure.ts';

export interface Ratio {
  name: string;
  target: string;
  value: number | undefined;
  min?: number;
  max?: number;
  met: boolean | undefined;
}

const ms = (us: number) => (us / 1000).toFixed(2);
const cpu = (us: number | undefined) => (us === undefined ? '?' : us.toFixed(0));
const k = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0));
const byId = (rs: FigureResult[], id: string) => rs.find((r) => r.id === id && r.summary);

/** num/den per round (runs are aligned by round), reported as median with min–max. */
function ratio(rs: FigureResult[], name: string, num: string, den: string, atLeast: number): Ratio {
  const a = byId(rs, num);
  const b = byId(rs, den);
  const target = `≥ ${atLeast < 1 ? `${(atLeast * 100).toFixed(0)}%` : `${atLeast}×`}`;
  if (!a || !b) return { name, target, value: undefined, met: undefined };
  const per = a.runs.slice(0, b.runs.length).map((r, i) => r.rps / b.runs[i].rps);
  const value = median(per);
  return { name, target, value, min: Math.min(...per), max: Math.max(...per), met: value >= atLeast };
}

/** Context, no target: the same ratio taken from server CPU time per request (den/num µs). */
function cpuRatio(rs: FigureResult[], name: string, num: string, den: string, pct: boolean): Ratio {
  const a = byId(rs, num);
  const b = byId(rs, den);
  const target = pct ? '(context) %' : '(context) ×';
  if (!a || !b) return { name, target, value: undefined, met: undefined };
  const per = a.runs.slice(0, b.runs.length).map((r, i) => (b.runs[i].cpuUsPerReq ?? NaN) / (r.cpuUsPerReq ?? NaN));
  return { name, target, value: median(per), min: Math.min(...per), max: Math.max(...per), met: undefined };
}

/** Service p99 ÷ its reference's p99, per round: at most `atMost`×. */
function p99Ratio(rs: FigureResult[], num: string, den: string, atMost: number): Ratio {
  const a = byId(rs, num);
  const b = byId(rs, den);
  const name = `p99 ÷ reference p99: ${a?.server ?? num} ${a?.endpoint ?? ''} vs ${b?.server ?? den}`;
  const target = `≤ ${atMost}×`;
  if (!a || !b) return { name, target, value: undefined, met: undefined };
  const per = a.runs.slice(0, b.runs.length).map((r, i) => r.latencyUs.p99 / b.runs[i].latencyUs.p99);
  const value = median(per);
  return { name, target, value, min: Math.min(...per), max: Math.max(...per), met: value <= atMost };
}

/** Each service figure and the reference doing the same work in the same rounds (issue 15). */
const MATCHING_REFERENCE: [string, string][] = [
  ['pg.get-plan', 'ref.fastify-pg-prep'],
  ['lite.get-plan', 'ref.fastify-pglite'],
  ['pg.list-subs', 'ref.fastify-pg-list'],
  ['pg.post-plan', 'ref.fastify-pg-insert'],
];

export function computeRatios(rs: FigureResult[]): Ratio[] {
  const out = [
    ratio(
      rs,
      'embedded default: service (PGlite) GET /plans/{id} ÷ Fastify+PGlite',
      'lite.get-plan',
      'ref.fastify-pglite',
      2,
    ),
    ratio(rs, 'service GET /plans/{id} ÷ Fastify+pg prepared (ceiling)', 'pg.get-plan', 'ref.fastify-pg-prep', 0.9),
    ratio(rs, 'service GET /plans/{id} ÷ Express 5+pg', 'pg.get-plan', 'ref.express-pg', 1.1),
    ratio(
      rs,
      'service GET /merchants/{id}/subscriptions?limit=50 ÷ Fastify+pg prepared 50 rows',
      'pg.list-subs',
      'ref.fastify-pg-list',
      0.85,
    ),
    ratio(rs, 'service POST /plans ÷ Fastify+pg+Zod insert (ceiling)', 'pg.post-plan', 'ref.fastify-pg-insert', 0.85),
    ratio(
      rs,
      'service GET /plans/{id} with an API key ÷ without (issue 11: a key costs nothing measurable)',
      'pg.get-plan-key',
      'pg.get-plan',
      0.95,
    ),
    cpuRatio(
      rs,
      'by server CPU per request: PGlite GET /plans/{id} vs Fastify+PGlite',
      'lite.get-plan',
      'ref.fastify-pglite',
      false,
    ),
    cpuRatio(rs, 'by server CPU per request: GET /plans/{id} vs ceiling', 'pg.get-plan', 'ref.fastify-pg-prep', true),
    cpuRatio(rs, 'by server CPU per request: GET /plans/{id} vs Express 5+pg', 'pg.get-plan', 'ref.express-pg', false),
    cpuRatio(rs, 'by server CPU per request: listing vs 50-row reference', 'pg.list-subs', 'ref.fastify-pg-list', true),
    cpuRatio(
      rs,
      'by server CPU per request: POST /plans vs insert ceiling',
      'pg.post-plan',
      'ref.fastify-pg-insert',
      true,
    ),
    {
      ...ratio(
        rs,
        'ceiling ÷ Express 5+pg: the most any handler reaches against that target',
        'ref.fastify-pg-prep',
        'ref.express-pg',
        1.2,
      ),
      target: '(context) ×',
      met: undefined,
    },
    ...MATCHING_REFERENCE.map(([svc, ref]) => p99Ratio(rs, svc, ref, 1.2)),
  ];
  // Context only: on this 2-core machine the references miss p99 ≤ 3× p50 too (issue 15 retired it).
  for (const r of rs) {
    if (!r.summary) continue;
    const per = r.runs.map((x) => x.latencyUs.p99 / x.latencyUs.p50);
    out.push({
      name: `p99 ÷ p50, ${r.server} ${r.endpoint}`,
      target: '(context) ×',
      value: median(per),
      min: Math.min(...per),
      max: Math.max(...per),
      met: undefined,
    });
  }
  return out;
}

function fmtRatio(r: Ratio): string {
  if (r.value === undefined) return 'not measured';
  const pct = r.target.includes('%') && !r.target.includes('×');
  const f = (x: number) => (pct ? `${(x * 100).toFixed(0)}%` : `${x.toFixed(2)}×`);
  return `${f(r.value)} (${f(r.min!)}–${f(r.max!)})`;
}

export function ratiosMarkdown(ratios: Ratio[]): string {
  const rows = ratios.map(
    (r) => `| ${r.name} | ${fmtRatio(r)} | ${r.target} | ${r.met === undefined ? '—' : r.met ? 'met' : '**missed**'} |`,
  );
  return ['| ratio (same run, per round) | median (min–max) | target | |', '|---|---|---|---|', ...rows].join('\n');
}

export function tableMarkdown(rs: FigureResult[]): string {
  const rows = rs.map((r) => {
    if (!r.summary)
      return `| ${r.server} | ${r.endpoint} | ${r.skipped ? `skipped: ${r.skipped}` : (r.failed ?? 'no runs')} | | | | | | |`;
    const s = r.summary;
    const errs = (s.errors ? `${s.errors} of ${s.requests}` : '0') + (r.failed ? `; ${r.failed}` : '');
    return `| ${r.server} | ${r.endpoint} | **${k(s.rps)}** (${k(s.rpsMin)}–${k(s.rpsMax)}) | ${ms(s.p50Us)} | ${ms(s.p99Us)} | ${cpu(s.cpuUsPerReq)} | ${(s.otherCpu0Max * 100).toFixed(0)}% | ${(s.cpu1Busy * 100).toFixed(0)}% | ${errs} |`;
  });
  return [
    '| server | endpoint | req/s median (min–max) | p50 ms | p99 ms | server CPU µs/req | other load on CPU 0 (max) | CPU 1 busy | errors |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

export function tableConsole(rs: FigureResult[]): string {
  const head = [
    'server',
    'endpoint',
    'req/s',
    'min–max',
    'p50 ms',
    'p99 ms',
    'cpu µs/req',
    'other cpu0',
    'cpu1 busy',
    'errors',
  ];
  const rows = rs.map((r) => {
    const s = r.summary;
    if (!s) return [r.server, r.endpoint, 'skipped', '', '', '', '', '', '', ''];
    const other = `${(s.otherCpu0Max * 100).toFixed(0)}%`;
    return [
      r.server,
      r.endpoint,
      k(s.rps),
      `${k(s.rpsMin)}–${k(s.rpsMax)}`,
      ms(s.p50Us),
      ms(s.p99Us),
      cpu(s.cpuUsPerReq),
      other,
      `${(s.cpu1Busy * 100).toFixed(0)}%`,
      String(s.errors),
    ];
  });
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i >= 2 ? c.padStart(w[i]) : c.padEnd(w[i]))).join('  ');
  return [line(head), line(w.map((n) => '-'.repeat(n))), ...rows.map(line)].join('\n');
}

export function ratiosConsole(ratios: Ratio[]): string {
  return ratios
    .map(
      (r) =>
        `${r.met === undefined ? '  ' : r.met ? 'ok' : '!!'}  ${r.name.padEnd(70)} ${fmtRatio(r).padEnd(22)} target ${r.target}`,
    )
    .join('\n');
}

const TITLE = `# Benchmarks

Generated by \`npm run bench\` (service/bench/run.ts); see service/bench/README.md for options.
Sections between \`<!-- bench:… -->\` markers are rewritten by the bench on every run; anything
outside them is kept.

${['http', 'profile', 'scale'].map((n) => `<!-- bench:${n} -->\n_not run yet_\n<!-- /bench:${n} -->`).join('\n\n')}
`;

/** Replaces (or appends) the block between <!-- bench:name --> and <!-- /bench:name -->. */
export function writeSection(file: string, name: string, body: string): void {
  let text = existsSync(file) ? readFileSync(file, 'utf8') : TITLE;
  const open = `<!-- bench:${name} -->`;
  const close = `<!-- /bench:${name} -->`;
  const block = `${open}\n${body.trim()}\n${close}`;
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  text = a >= 0 && b > a ? text.slice(0, a) + block + text.slice(b + close.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, text);
}
