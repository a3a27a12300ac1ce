// One real PostgreSQL 15 server for the whole test run, started here and stopped afterwards.
// Tests read its URL with inject('pgUrl'). Set TEST_DATABASE_URL to use an existing server.
import 'vitest';
import type { TestProject } from 'vitest/node';
import { startPostgres } from './pg-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const existing = process.env.TEST_DATABASE_URL;
  if (existing) {
    project.provide('pgUrl', existing);
    return;
  }
  const server = await startPostgres();
  project.provide('pgUrl', server.url);
  return () => server.stop();
}
