// @ts-check
// `npm run lint` (part of `npm test`): typescript-eslint's recommended rules; formatting is prettier's alone.
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '.test-dist/', 'coverage/', 'data/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Input validation matches control characters on purpose (common/http/request-shape.ts).
      'no-control-regex': 'off',
      // `const { $schema, ...rest } = body` is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true }],
    },
  },
  {
    // Type-aware, but only the two promise rules: a forgotten await is the bug a service cannot afford, and the full
    // type-checked preset (no-unsafe-* on every JSON body) would triple the run for little.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error', '@typescript-eslint/no-misused-promises': 'error' },
  },
  {
    files: ['test/**/*.ts'],
    // Tests walk untyped JSON documents (OpenAPI, response bodies).
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Plain Node scripts (scripts/cli.js, test helpers run as child processes): CommonJS, Node's globals.
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
