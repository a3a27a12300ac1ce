// Import rules for the whole repository, checked by `npm run lint` (part of `npm test`).
// service/ARCHITECTURE.md explains the layers these rules hold apart.
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
        'A workspace (service, devnet, demo, soak, web, any top-level folder) never imports the source of another: ' +
        'they talk over HTTP or a child process, as a user would.',
      from: { path: '^([^/]+)/' },
      to: { path: '^[^/]+/', pathNot: ['^$1/', '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'billing-is-pure',
      severity: 'error',
      comment:
        'service/src/billing holds the rules: no web framework, no database driver, no storage or HTTP code, ' +
        'no Stellar SDK. It reaches the world through its ports.',
      from: { path: '^service/src/billing/' },
      to: {
        path: [
          '^service/src/(storage|http|chain|jobs|cli|webhooks|secrets)/',
          '^service/src/(app|main|deps|config|metrics|logger)\\.ts$',
          '(^|/)node_modules/(fastify|@fastify/[^/]+|pg|pg-[^/]+|@electric-sql/pglite|@stellar/[^/]+|node-pg-migrate|pino|prom-client)/',
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
      name: 'routes-not-storage',
      severity: 'error',
      comment: 'A route calls a verb; only the verb (through a port) reaches storage.',
      from: { path: '^service/src/http/' },
      to: { path: '^service/src/storage/' },
    },
    {
      name: 'cli-not-http',
      severity: 'error',
      comment:
        'The CLI and the HTTP layer are two front doors onto the same verbs; neither borrows the other’s code. ' +
        'Shared request/response shapes live in service/src/contracts.',
      from: { path: '^service/src/cli/' },
      to: { path: '^service/src/http/' },
    },
    {
      name: 'contracts-are-leaves',
      severity: 'error',
      comment: 'service/src/contracts (Zod shapes shared by HTTP and CLI) depend on zod and billing types only.',
      from: { path: '^service/src/contracts/' },
      to: {
        path: '^service/src/',
        pathNot: ['^service/src/contracts/', '^service/src/billing/'],
      },
    },
    {
      name: 'devnet-ledger-below-host',
      severity: 'error',
      comment: 'In the local network, ledger/ is the state the host runs on; it never reaches up into host/.',
      from: { path: '^devnet/src/ledger/' },
      to: { path: '^devnet/src/(host|tx|rpc|control|contracts)/' },
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
    exclude: { path: ['(^|/)bench/results/'] },
    parser: 'swc',
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
