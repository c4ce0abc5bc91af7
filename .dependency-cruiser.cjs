/**
 * The house plan's arrows (docs/architecture.md), checked by `npm run lint:deps` in CI.
 * Type-only imports are contracts, not arrows: a feature may name another's types, never call it.
 */
const runtime = { dependencyTypesNot: ['type-only'] };
const FEATURE = '^src/features/([^/]+)/';

module.exports = {
  forbidden: [
    {
      name: 'platform-is-the-floor',
      comment: 'platform/ depends on nothing else of ours.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: '^src/', pathNot: '^src/platform/' },
    },
    {
      name: 'http-and-bundle-use-only-platform',
      comment: 'http/ and bundle/ build on platform/ alone.',
      severity: 'error',
      from: { path: '^src/(http|bundle)/' },
      to: { path: '^src/', pathNot: ['^src/platform/', '^src/$1/'] },
    },
    {
      name: 'bundle-top-is-the-hall',
      comment: "bundle/'s top (the sink, the manifest) is what every room shares; it reaches into none of them.",
      severity: 'error',
      from: { path: '^src/bundle/[^/]+\\.ts$' },
      to: { path: '^src/bundle/[^/]+/' },
    },
    {
      name: 'bundle-rooms-stand-apart',
      comment: 'zip/, tar/, fetch/ and links/ share only the top of bundle/ (and platform/) with the other rooms.',
      severity: 'error',
      from: { path: '^src/bundle/(zip|tar|fetch|links)/' },
      to: { path: '^src/bundle/[^/]+/', pathNot: '^src/bundle/$1/' },
    },
    {
      name: 'bundle-install-reads-zips',
      comment: 'install/ reads a zip (zip/) or a tar.gz (tar/), but never fetches or signs: its caller hands it a file.',
      severity: 'error',
      from: { path: '^src/bundle/install/' },
      to: { path: '^src/bundle/(fetch|links)/' },
    },
    {
      name: 'render-is-a-library',
      comment: "render/ imports nothing but platform/ and bundle's sink interface.",
      severity: 'error',
      from: { path: '^src/render/' },
      to: { path: '^src/', pathNot: ['^src/render/', '^src/platform/', '^src/bundle/BundleSink\\.ts$'] },
    },
    {
      name: 'render-has-one-door',
      comment: 'Outside render/, import only render/index.ts: what the renderer offers, never how it does it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/render/' },
      to: { path: '^src/render/', pathNot: '^src/render/index\\.ts$' },
    },
    {
      name: 'config-stands-alone',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: ['^src/config/', '^src/platform/'] },
    },
    {
      name: 'features-use-the-layers-below',
      comment: 'A feature uses platform, http, bundle, render and config; never app/ or cli/.',
      severity: 'error',
      from: { path: '^src/features/' },
      to: { path: '^src/(app|cli)/' },
    },
    {
      name: 'features-meet-only-through-app',
      comment: 'One feature reaches another only through an interface that app/ passes in.',
      severity: 'error',
      from: { path: FEATURE },
      to: { path: '^src/features/[^/]+/', pathNot: ['^src/features/$1/'], ...runtime },
    },
    {
      name: 'features-see-control-through-site-directory',
      comment: "Other features know the control plane only by its ports (SiteDirectory, SessionKeys), never its store, repositories or operations.",
      severity: 'error',
      from: { path: '^src/features/', pathNot: '^src/features/control/' },
      to: { path: '^src/features/control/', pathNot: '^src/features/control/(SiteDirectory|SessionKeys)\\.ts$' },
    },
    {
      name: 'one-scheduler',
      comment: 'Features hand app/ their Tasks; only app/ builds the Scheduler, and only the Scheduler (and the config check) use node-cron.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/app/', '^src/platform/Scheduler\\.ts$', '^src/config/'] },
      to: { path: ['^src/platform/Scheduler\\.ts$', 'node_modules/node-cron/'] },
    },
    {
      name: 'create-app-knows-features-by-interface',
      comment: 'createApp mounts what features contribute (routes, middleware, authentication); it imports none of their code.',
      severity: 'error',
      from: { path: '^src/app/(createApp\\.ts$|routes/)' },
      to: { path: '^src/features/', ...runtime },
    },
    {
      name: 'routes-call-operations',
      comment: 'Route handlers call operations, never repositories or logs.',
      severity: 'error',
      from: { path: `${FEATURE}routes/` },
      to: { path: '(Repository|Store|Log)\\.ts$' },
    },
    {
      name: 'only-main-and-cli-start-the-app',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/app/', '^src/main\\.ts$', '^src/cli/'] },
      to: { path: '^src/app/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, ...runtime },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // node_modules stay in the graph as leaves (not followed), so a rule can name a package.
    exclude: { path: ['\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs'] },
  },
};
