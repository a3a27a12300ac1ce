// References (a) and (b): bare Fastify + node-postgres, GET /plans/:id as one select by primary
// key. With --prepared the query carries a name, so node-postgres prepares it once per pooled
// connection and then only binds and executes: the ceiling for this work on this machine.
import Fastify from 'fastify';
import { HOST, PORT, SELECT_PLAN, UUID_RE, planJson, pool, stopOnSignal } from './common.ts';

const prepared = process.argv.includes('--prepared');
const db = pool();
const app = Fastify({ logger: false });

app.get<{ Params: { id: string } }>('/plans/:id', async (req, reply) => {
  const { id } = req.params;
  if (!UUID_RE.test(id))
    return reply.code(400).send({ error: 'Invalid input on id: id parameter must be a valid UUID' });
  const res = await db.query(
    prepared ? { name: 'plan_by_id', text: SELECT_PLAN, values: [id] } : { text: SELECT_PLAN, values: [id] },
  );
  if (res.rows.length === 0) return reply.code(404).send({ error: 'Plan not found' });
  return { plan: planJson(res.rows[0]) };
});

await app.listen({ port: PORT, host: HOST });
stopOnSignal(async () => {
  await app.close();
  await db.end();
});
