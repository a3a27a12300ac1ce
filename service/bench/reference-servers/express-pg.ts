// Reference (c): the stack a merchant would otherwise run (and the seed's original): Express 5
// + node-postgres, the same select of a plan by primary key, no prepared statement.
import express from 'express';
import { HOST, PORT, SELECT_PLAN, UUID_RE, planJson, pool, stopOnSignal } from './common.ts';

const db = pool();
const app = express();
app.disable('x-powered-by');

app.get('/plans/:id', async (req, res) => {
  const { id } = req.params;
  if (!UUID_RE.test(id)) {
    res.status(400).json({ error: 'Invalid input on id: id parameter must be a valid UUID' });
    return;
  }
  const result = await db.query(SELECT_PLAN, [id]);
  if (result.rows.length === 0) {
    res.status(404).json({ error: 'Plan not found' });
    return;
  }
  res.json({ plan: planJson(result.rows[0]) });
});

const server = app.listen(PORT, HOST);
stopOnSignal(async () => {
  server.close();
  await db.end();
});
