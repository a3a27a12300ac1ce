// A merchant's API keys: create (the key is in this answer only), list, revoke. Credential routes:
// a key is needed in both modes, the operator's or one of the merchant's own.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams, toIso } from '../../schemas/common.ts';
import { apiKeyJson, apiKeyResponses, CreateApiKeyBody, KeyParams } from '../../schemas/api-keys.ts';
import { merchantJson } from '../../schemas/merchants.ts';

export const apiKeyRoutes: RoutesPlugin = async (app, { deps }) => {
  const { createApiKey, listApiKeys, revokeApiKey, currentKey } = deps.accountVerbs;
  const config = { access: 'credential' } as const;

  app.post<{ Params: IdParams; Body: CreateApiKeyBody }>(
    '/merchants/:id/api-keys',
    { schema: { params: IdParams, body: CreateApiKeyBody, response: apiKeyResponses.create }, config },
    async (request, reply) => {
      const issued = await createApiKey({
        ctx: ctxOf(request),
        input: { merchant_id: request.params.id, label: request.body.label },
      });
      return reply.code(201).send({ api_key: issued.secret, key: apiKeyJson(issued.key) });
    },
  );

  app.get<{ Params: IdParams }>(
    '/merchants/:id/api-keys',
    { schema: { params: IdParams, response: apiKeyResponses.list }, config },
    async (request) => {
      const keys = await listApiKeys({ ctx: ctxOf(request), input: { merchant_id: request.params.id } });
      return { keys: keys.map(apiKeyJson) };
    },
  );

  // Who this key is: the dashboard signs in with a key alone.
  app.get('/api-keys/current', { schema: { response: apiKeyResponses.current }, config }, async (request) => {
    const who = await currentKey({ ctx: ctxOf(request) });
    return { actor: who.actor, merchant: who.merchant ? merchantJson(who.merchant) : null, key_id: who.keyId };
  });

  app.delete<{ Params: KeyParams }>(
    '/merchants/:id/api-keys/:key_id',
    { schema: { params: KeyParams, response: apiKeyResponses.revoke }, config },
    async (request) => {
      const key = await revokeApiKey({
        ctx: ctxOf(request),
        input: { merchant_id: request.params.id, key_id: request.params.key_id },
      });
      return { message: 'API key revoked', key: { ...apiKeyJson(key), revoked_at: toIso(key.revoked_at as Date) } };
    },
  );
};
