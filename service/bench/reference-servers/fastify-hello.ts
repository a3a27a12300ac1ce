// Reference (e): Fastify hello world, the upper bound of any Fastify route on this machine.
import Fastify from 'fastify';
import { HOST, PORT, stopOnSignal } from './common.ts';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));

await app.listen({ port: PORT, host: HOST });
stopOnSignal(() => app.close());
