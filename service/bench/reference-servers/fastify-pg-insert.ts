// Reference (d): the POST ceiling. Bare Fastify + node-postgres: the body validated with Zod
// (the spec's rules for POST /plans), then one INSERT … RETURNING as a named prepared
// statement, 201 with the created plan. No merchant lookup: the foreign key checks it.
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { HOST, PLAN_COLUMNS, PORT, planJson, pool, stopOnSignal } from './common.ts';

const Body = z.object({
  merchant_id: z.uuid(),
  name: z.string().refine((s) => s.trim().length > 0, 'name cannot be empty'),
  token_amount: z.coerce.number().gt(0),
  interval_seconds: z.coerce.number().int().gt(0),
});

const INSERT = `INSERT INTO plans (id, merchant_id, name, token_amount, interval_seconds)
  VALUES ($1, $2, $3, $4, $5) RETURNING ${PLAN_COLUMNS}`;

const db = pool();
const app = Fastify({ logger: false });

app.post('/plans', async (req, reply) => {
  const parsed = Body.safeParse(req.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return reply.code(400).send({ error: `Invalid input on ${issue.path.join('.')}: ${issue.message}` });
  }
  const b = parsed.data;
  const res = await db.query({
    name: 'insert_plan',
    text: INSERT,
    values: [randomUUID(), b.merchant_id, b.name, b.token_amount, b.interval_seconds],
  });
  return reply.code(201).send({ message: 'Plan created successfully', plan: planJson(res.rows[0]) });
});

await app.listen({ port: PORT, host: HOST });
stopOnSignal(async () => {
  await app.close();
  await db.end();
});
