// GET /ready: readiness. The database answers and every shipped migration has run, so a replica
// started against an old schema takes no traffic. /health, next door, stays the cheaper liveness
// probe. A production service left in AUTH_MODE=open stays ready but says so in `warning`.
import type { RoutesPlugin } from '../route-plugin.ts';
import { errorBody } from '../errors.ts';
import { logProbeFailure, PROBE_TIMEOUT_MS, withTimeout } from './health.ts';

export const OPEN_IN_PRODUCTION =
  "AUTH_MODE=open in production: requests without an API key may create, read and delete every merchant's data; set AUTH_MODE=keys";

export const operationsRoutes: RoutesPlugin = async (app, { deps }) => {
  const shipped = deps.migrations.shipped();
  const { nodeEnv, authMode } = deps.config;
  const warning = nodeEnv === 'production' && authMode === 'open' ? { warning: OPEN_IN_PRODUCTION } : {};

  /**
   * Channel accounts (issue 14), when there are any: how many are free, and a warning once this
   * replica has wanted one and found none free for longer than a ledger (pulls then wait, and are
   * refused as chain_busy after MERCHANT_QUEUE_WAIT_MS). Still ready: every replica shares the pool.
   */
  async function channelState() {
    const status = await deps.gateway.channelStatus?.().catch(() => undefined);
    if (!status || status.total === 0) return {};
    const waited = status.exhaustedSince === undefined ? 0 : Date.now() - status.exhaustedSince;
    return {
      channels: {
        total: status.total,
        leased: status.leased,
        free: status.total - status.leased,
        ...(waited > status.ledgerMs && {
          warning: `no channel account has been free for ${Math.round(waited / 1000)} s (longer than a ledger): pulls are waiting; add channels with \`billing channels create --count N\``,
        }),
      },
    };
  }

  app.get('/ready', { config: { access: 'none' } }, async (request, reply) => {
    try {
      const pending = await withTimeout(deps.migrations.pending(), PROBE_TIMEOUT_MS);
      if (pending.length > 0) {
        return reply
          .code(503)
          .send({ status: 'unavailable', ...errorBody(`migrations not applied: ${pending.join(', ')}`) });
      }
      return { status: 'ready', migrations: shipped.length, ...warning, ...(await channelState()) };
    } catch (err) {
      logProbeFailure(request, err);
      return reply.code(503).send({ status: 'unavailable', ...errorBody((err as Error).message) });
    }
  });
};
