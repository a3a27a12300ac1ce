// Reference (f), for the PGlite figures: Fastify + PGlite in the same process, the same select
// of a plan by primary key on its own in-memory copy of the plans table. PLAN_IDS_FILE lists the
// ids to create (one a line), so the bench can send it the same ids as the service.
import { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { HOST, PORT, SELECT_PLAN, UUID_RE, planJson, stopOnSignal } from './common.ts';

const lite = await PGlite.create(undefined, { parsers: { 1700: (v: string) => v, 20: (v: string) => v } });
await lite.exec(`CREATE TABLE plans (
  id uuid PRIMARY KEY, merchant_id uuid NOT NULL, name text NOT NULL, token_amount numeric NOT NULL,
  interval_seconds integer NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
const ids = process.env.PLAN_IDS_FILE
  ? readFileSync(process.env.PLAN_IDS_FILE, 'utf8').split('\n').filter(Boolean)
  : [];
await lite.query(
  `INSERT INTO plans (id, merchant_id, name, token_amount, interval_seconds)
   SELECT id, gen_random_uuid(), 'Reference plan', 10000000, 2592000 FROM unnest($1::uuid[]) AS id`,
  [ids],
);

const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/plans/:id', async (req, reply) => {
  const { id } = req.params;
  if (!UUID_RE.test(id))
    return reply.code(400).send({ error: 'Invalid input on id: id parameter must be a valid UUID' });
  const res = await lite.query<Record<string, unknown>>(SELECT_PLAN, [id]);
  if (res.rows.length === 0) return reply.code(404).send({ error: 'Plan not found' });
  return { plan: planJson(res.rows[0]) };
});

await app.listen({ port: PORT, host: HOST });
stopOnSignal(async () => {
  await app.close();
  await lite.close();
});
