// Who is acting and for which request. Verbs take it first so a log line or an audit row can
// always name the caller; `system` is for work nobody asked for over HTTP (migrations, collectors).

export type Actor = { kind: 'api' } | { kind: 'system'; job: string };

export interface Ctx {
  actor: Actor;
  requestId: string;
}

export const systemCtx = (job: string): Ctx => ({ actor: { kind: 'system', job }, requestId: job });
