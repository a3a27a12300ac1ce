// PUT and DELETE /merchants/{id}/signing-key: the merchant's wallet key, stored encrypted so that
// /trigger-pull can sign without merchant_secret. Credential routes: a key in both modes.
import type { RoutesPlugin } from '../route-plugin.ts';
import { ctxOf } from '../context.ts';
import { IdParams } from '../../schemas/common.ts';
import { SetSigningKeyBody, signingKeyJson, signingKeyResponses } from '../../schemas/signing-keys.ts';

export const signingKeyRoutes: RoutesPlugin = async (app, { deps }) => {
  const { setSigningKey, removeSigningKey } = deps.accountVerbs;
  const config = { access: 'credential' } as const;

  app.put<{ Params: IdParams; Body: SetSigningKeyBody }>(
    '/merchants/:id/signing-key',
    { schema: { params: IdParams, body: SetSigningKeyBody, response: signingKeyResponses.put }, config },
    async (request) => {
      const stored = await setSigningKey({
        ctx: ctxOf(request),
        input: { merchant_id: request.params.id, secret: request.body.secret },
      });
      return { signing_key: signingKeyJson(stored) };
    },
  );

  app.delete<{ Params: IdParams }>(
    '/merchants/:id/signing-key',
    { schema: { params: IdParams, response: signingKeyResponses.delete }, config },
    async (request) => {
      await removeSigningKey({ ctx: ctxOf(request), input: { merchant_id: request.params.id } });
      return { message: 'Signing key removed' };
    },
  );
};
