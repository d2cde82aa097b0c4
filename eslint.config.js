// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'schemas/**', 'coverage/**', '.scratch/**', 'bench/*.mjs', 'scripts/*.mjs'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // console, the environment, stdio and process.exit belong to the CLI only (STYLE.md): library code is handed
      // its settings and reports through return values and errors; it never prints or exits.
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'Only src/cli may exit.' },
        { object: 'process', property: 'env', message: 'Only src/cli reads the environment; take an option.' },
        { object: 'process', property: 'stdout', message: 'Only src/cli prints.' },
        { object: 'process', property: 'stderr', message: 'Only src/cli prints.' },
        { object: 'process', property: 'argv', message: 'Only src/cli reads the command line.' },
      ],
    },
  },
  {
    files: ['src/cli/**', 'test/**', 'bench/**'],
    rules: { 'no-console': 'off', 'no-restricted-properties': 'off' },
  },
  {
    files: ['test/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // Tests read JSON answers as `any` on purpose: the assertions are the type check.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Tasks handed to the limiter must be async functions, with or without an await inside.
      '@typescript-eslint/require-await': 'off',
    },
  },
  { files: ['eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  {
    // The dependency-cruiser rule file is CommonJS, as that tool reads it.
    files: ['.dependency-cruiser.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: 'commonjs',
      globals: { module: 'writable' },
    },
  },
);
