// Import rules for the whole repository, checked by `npm run lint` (part of `npm test`).
// service/ARCHITECTURE.md explains the layers these rules hold apart.
//
// Parsed with swc (@swc/core): dependency-cruiser 18 cannot use typescript 7 yet. swc sees
// `import type` too, so a type-only import counts like any other (for circles and layers alike).

// The local network's layers, lowest first: each may import only those before it.
// rpc/ and control/ are two front doors at the top; neither imports the other.
const DEVNET_LAYERS = ['ledger', 'host', 'contracts', 'network', 'tx', 'rpc|control'];

const devnetLayerRules = DEVNET_LAYERS.slice(0, -1).map((layer, i) => ({
  name: `devnet-${layer.replace('|', '-')}-below-${DEVNET_LAYERS[i + 1].replace('|', '-')}`,
  severity: 'error',
  comment: `devnet/src layers, lowest first: ${DEVNET_LAYERS.join(' < ')}. ${layer}/ never imports a layer above it.`,
  from: { path: `^devnet/src/(${layer})/` },
  to: { path: `^devnet/src/(${DEVNET_LAYERS.slice(i + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles anywhere: a circle means two modules are one module split badly.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-cross-workspace',
      severity: 'error',
      comment:
        'A workspace (service, devnet, demo, soak, web: any top-level folder) never imports the source of another; ' +
        'they talk over HTTP or a child process, as a user would.',
      from: { path: '^([^/]+)/' },
      to: { path: '^[^/]+/', pathNot: ['^$1/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },

    // service/src
    {
      name: 'billing-is-pure',
      severity: 'error',
      comment:
        'service/src/billing holds the rules: no web framework, no database driver, no storage or HTTP code, ' +
        'no Stellar SDK. It reaches the world through its ports.',
      from: { path: '^service/src/billing/' },
      to: {
        path: [
          '^service/src/(?!billing/)',
          '(^|/)node_modules/(fastify|@fastify/[^/]+|pg|pg-[^/]+|@electric-sql/pglite|@stellar/[^/]+|node-pg-migrate|pino|prom-client|commander)/',
        ],
      },
    },
    {
      name: 'sdk-only-in-chain',
      severity: 'error',
      comment: 'Only service/src/chain speaks to the Stellar SDK; everything else sees chain facts through ports.',
      from: { path: '^service/src/', pathNot: '^service/src/chain/' },
      to: { path: '(^|/)node_modules/@stellar/' },
    },
    {
      name: 'schemas-are-neutral',
      severity: 'error',
      comment:
        'service/src/schemas (Zod request schemas, JSON shapes, validation messages, cursors) is shared by ' +
        'the HTTP API and the CLI: it depends on billing only, and on no framework.',
      from: { path: '^service/src/schemas/' },
      to: {
        path: [
          '^service/src/(?!billing/|schemas/)',
          '(^|/)node_modules/(fastify|@fastify/[^/]+|pg|@electric-sql/pglite|@stellar/[^/]+|commander)/',
        ],
      },
    },
    {
      name: 'http-not-storage-or-chain',
      severity: 'error',
      comment:
        'Routes call verbs (deps.verbs, deps.migrations, ...); only adapters behind ports reach storage/ and chain/.',
      from: { path: '^service/src/http/' },
      to: { path: '^service/src/(storage|chain|cli|jobs)/' },
    },
    {
      name: 'cli-not-http',
      severity: 'error',
      comment:
        'The CLI and the HTTP API are two front doors onto the same verbs; neither borrows the other’s code. ' +
        'What they share lives in service/src/schemas.',
      from: { path: '^service/src/cli/' },
      to: { path: '^service/src/(http|storage|chain|jobs)/' },
    },
    {
      name: 'adapters-stay-adapters',
      severity: 'error',
      comment:
        'storage/, chain/, webhooks/ and secrets/ implement billing ports: they import billing (and config), ' +
        'never a front door, a job, the composition root or each other.',
      from: { path: '^service/src/(storage|chain|webhooks|secrets)/' },
      to: {
        path: [
          '^service/src/(http|cli|jobs|schemas)/',
          '^service/src/(app|main|deps)\\.ts$',
          '^service/src/(storage|chain|webhooks|secrets)/',
        ],
        pathNot: '^service/src/$1/',
      },
    },
    {
      name: 'jobs-run-verbs',
      severity: 'error',
      comment: 'jobs/ run verbs on a timer; like routes, they reach storage and the chain only through ports.',
      from: { path: '^service/src/jobs/' },
      to: { path: '^service/src/(http|cli|storage|chain)/' },
    },

    // devnet/src
    ...devnetLayerRules,
    {
      name: 'devnet-front-doors-apart',
      severity: 'error',
      comment: 'devnet/src/rpc (JSON-RPC) and devnet/src/control (the test control API) do not import each other.',
      from: { path: '^devnet/src/(rpc|control)/' },
      to: { path: '^devnet/src/(rpc|control)/', pathNot: '^devnet/src/$1/' },
    },

    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    // bench results and the built front end are generated output
    exclude: { path: ['(^|/)bench/results/', '^web/dist/'] },
    parser: 'swc',
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      // .d.ts: web/src/api/schema.d.ts, generated from the service's OpenAPI document at build
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.json'],
    },
  },
};
