// Authentication at the edge: every route of the API declares who may call it
// (`config: { access }`, see billing/access/authorize.ts), and this hook, added to each route as it
// is registered, turns the Authorization header into the request's actor and applies the route's
// rule before the body is even read. A route registered without an access fails at start-up, so
// no route can be added unprotected by accident (the auth matrix test walks the same table).
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { apiKeyInvalid, authorize, type Access, type AuthMode } from '../billing/access/authorize.ts';
import { ANONYMOUS, type Actor } from '../billing/context.ts';
import { BillingError } from '../billing/errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; required on every route of the API (not on /docs). */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    actor: Actor;
  }
}

const BEARER = /^Bearer +([\x21-\x7e]{1,512})$/i;

export type Authenticate = (input: { key: string }) => Promise<Actor>;

/** `none`: the probes, which never look at a key (a load balancer must not be refused). */
export type RouteAccess = Access | 'none';

/** The key in `Authorization: Bearer <key>`; undefined without the header. */
export function bearerKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const m = BEARER.exec(header);
  if (!m) throw apiKeyInvalid('The Authorization header must be: Bearer <key>');
  return m[1];
}

/** Hooks every route registered in `scope` (and only there) from now on. */
export function installAuth(scope: FastifyInstance, o: { mode: AuthMode; authenticate: Authenticate }): void {
  // Set by the hook on every route of the scope before anything reads it.
  scope.decorateRequest<Actor | null>('actor', null);
  scope.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (access === undefined) throw new Error(`${route.method} ${route.url} declares no access (config.access)`);
    if (access === 'none') return;
    // Callback style, so that a request without a key (every public read) costs no promise.
    const check: onRequestHookHandler = (request, reply, done) => {
      const fail = (err: unknown) => {
        // RFC 6750: a 401 says which scheme would be accepted.
        if (err instanceof BillingError && (err.code === 'API_KEY_REQUIRED' || err.code === 'API_KEY_INVALID'))
          reply.header('www-authenticate', 'Bearer');
        done(err as Error);
      };
      const admit = (actor: Actor) => {
        request.actor = actor;
        try {
          authorize(actor, access, o.mode);
        } catch (err) {
          return fail(err);
        }
        done();
      };
      let key: string | undefined;
      try {
        key = bearerKey(request);
      } catch (err) {
        return fail(err);
      }
      if (key === undefined) return admit(ANONYMOUS);
      o.authenticate({ key }).then(admit, fail);
    };
    const existing = route.onRequest;
    route.onRequest = existing === undefined ? [check] : [check, ...[existing].flat()];
  });
}
