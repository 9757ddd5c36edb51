import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// bulletproof-react: features never import each other; only routes compose them.
const features = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const featureBoundaries = features.map((feature) => ({
  files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: features
          .filter((other) => other !== feature)
          .map((other) => ({
            group: [`@/features/${other}`, `@/features/${other}/*`, `**/features/${other}/*`],
            message: 'Features never import each other; compose them in a route.',
          })),
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', 'bench/results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    // Tests read loosely typed response bodies.
    files: ['**/test/**/*.ts', '**/*.spec.ts', '**/*-spec.ts', 'apps/web/e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  ...featureBoundaries,
  {
    // Import boundaries (docs/architecture.md, "Modules and conventions"): libs/ and broker/ never import apps/.
    files: ['libs/**/*.ts', 'broker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/**', '@wv/api', '@wv/web', '@wv/simulator'],
              message: 'libs/ and broker/ never import apps/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['broker/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', 'typeorm', '**/apps/**', '@wv/api'], message: 'broker/ is framework-free.' },
          ],
        },
      ],
    },
  },
  {
    // The demo (apps/demo) uses the API only through its public entry, apps/api/src/index.ts, so that
    // the API's modules may move freely. (no-restricted-imports is left to the blocks above.)
    files: ['apps/demo/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/api/**', '**/api/src/**', '@wv/api/*', '@wv/web', '@wv/demo'],
              message: "The demo imports the API only as '@wv/api' (apps/api/src/index.ts).",
            },
          ],
        },
      ],
    },
  },
  {
    // Nothing imports the demo, except that tests (and benchmarks, built) use its stand-ins for the outside
    // services (the SMTP catcher and the SMS sink in apps/demo/src/outside, the Daraja sandbox in apps/demo/src/daraja),
    // which the demo runs for a person to read.
    // A rule of its own, so that it adds to the boundaries above.
    ignores: ['apps/demo/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!.*demo/(src|dist)/(outside|daraja)/)(@wv/demo(/.*)?$|.*(^|/)apps/demo/|.*(^|/)demo/src/)',
              message: 'Nothing imports the demo (apps/demo).',
            },
          ],
        },
      ],
    },
  },
);
