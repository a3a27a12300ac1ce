// Reference for the listing figure: bare Fastify + node-postgres, GET /merchants/:id/subscriptions
// with the service's page of 50: one prepared select of the merchant's subscriptions in created
// order (plus one row to know whether a next page exists), the spec's five fields, and an opaque
// next cursor. No merchant check, no auth, no metrics: the ceiling for this work on this machine.
import Fastify from 'fastify';
import { HOST, PORT, UUID_RE, pool, stopOnSignal } from './common.ts';

const LIMIT = 50;
const SELECT_PAGE = `SELECT id, plan_id, customer_wallet_address, status, next_billing_date, created_at
  FROM subscriptions WHERE merchant_id = $1 ORDER BY created_at, id LIMIT $2`;

const db = pool();
const app = Fastify({ logger: false });

app.get<{ Params: { id: string } }>('/merchants/:id/subscriptions', async (req, reply) => {
  const { id } = req.params;
  if (!UUID_RE.test(id))
    return reply.code(400).send({ error: 'Invalid input on id: id parameter must be a valid UUID' });
  const res = await db.query({ name: 'subscriptions_page', text: SELECT_PAGE, values: [id, LIMIT + 1] });
  const rows = res.rows.slice(0, LIMIT);
  const last = rows[rows.length - 1];
  return {
    subscriptions: rows.map((r) => ({
      id: r.id,
      plan_id: r.plan_id,
      customer_wallet_address: r.customer_wallet_address,
      status: r.status,
      next_billing_date: r.next_billing_date.toISOString(),
    })),
    next_cursor:
      res.rows.length > LIMIT ? Buffer.from(`${last.created_at.toISOString()}|${last.id}`).toString('base64url') : null,
  };
});

await app.listen({ port: PORT, host: HOST });
stopOnSignal(async () => {
  await app.close();
  await db.end();
});
