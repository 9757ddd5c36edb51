/**
 * Import rules of the API (docs/architecture.md, "Modules and conventions"): one folder per domain,
 * folders never import each other in a loop, and a domain's repository is read only by its own folder
 * (other domains go through what its NestJS module exports). `npm run lint` runs these rules
 * (`depcruise apps/api/src`) and scripts/check-folder-cycles.mjs, which applies the loop rule to folders.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other in a loop: move the shared part into a file both can import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to no file (or package) on disk.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment: "A repository is its domain's own data access: use the service another domain's module exports instead.",
      from: { path: '^apps/api/src/([^/]+)/' },
      to: { path: '^apps/api/src/[^/]+/[^/]+[.]repository[.]ts$', pathNot: '^apps/api/src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['(^|/)dist/'] },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
