// ESLint for the web app: `npm run lint` (part of `./navalha test`, stage web unit).
// Syntax-only (no type-aware rules), so it stays fast; `tsc --noEmit` does the type checks.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'src');

/*
 * Module boundaries in src/, lowest layer first. A layer never imports a layer above it:
 *
 *   lib/          pure helpers (dates, money, masks, contrast...): imports only lib/.
 *   api/, state/  the RTK Query api and the client state slices (peers): no features/, no app/.
 *   components/   shared UI (Modal, form/, list/, layout/, staff/): no features/, no app/.
 *   features/<f>/ one screen or domain each: no app/; another feature only through the
 *                 public modules in FEATURE_PUBLIC below (relative `../other/x` imports too).
 *   app/          the store, routes and shell: composes everything, may import anything.
 *   test/         the Vitest harness (msw server, fixtures, renderApp): may import anything.
 *
 * Exceptions, kept to the minimum:
 *   - state/hooks.ts binds the typed hooks to the store: it may `import type` from app/store.
 *   - Tests (*.test.ts[x]) above lib/ may build the real store (app/store) to test against.
 *   - Only tests and test/ import test/ (the harness never ships).
 */
const FORBIDDEN = {
  lib: ['app', 'features', 'components', 'api', 'state', 'test'],
  api: ['app', 'features'],
  state: ['app', 'features'],
  components: ['app', 'features'],
  features: ['app'],
};

/** Modules of a feature that other features may import. */
const FEATURE_PUBLIC = new Set([
  // The agenda's index.ts: the day list's wire shapes (the home lists today's next
  // appointments from the same call) and the free times (the online booking reads them too).
  'agenda',
  'history/HistoryList',
  'professionals/DayOffTab',
  'professionals/palette',
  'professionals/types',
  'subscribers/timeline',
  // The comanda (issue 41) picks a client with the agenda's client search, a professional and a
  // service with the agenda's unit calls, a product from the products' list, and names its
  // client with the client's read.
  'agenda/api/agendaApi',
  'agenda/components/ClientSearch',
  'clients/clientsApi',
  'products/productsApi',
]);

/** 'features/clients/ClientFormPage' for '@/features/clients/ClientFormPage' or a relative
 * path that lands there; null for packages and for paths outside src/. */
function srcModule(specifier, filename) {
  let target;
  if (specifier.startsWith('@/')) target = specifier.slice(2);
  else if (specifier.startsWith('.')) target = path.relative(SRC, path.resolve(path.dirname(filename), specifier));
  else return null;
  target = target.split(path.sep).join('/');
  if (target.startsWith('..') || path.isAbsolute(target)) return null;
  return target.replace(/\.(tsx?|jsx?)$/, '').replace(/\/index$/, '');
}

/** Why `from` (a module of src/) must not import `to`, or null when it may. */
function violation(from, to, { isTest, typeOnly }) {
  const [fromLayer, fromFeature] = from.split('/');
  const [toLayer, toFeature, ...rest] = to.split('/');
  if (fromLayer === 'test' || fromLayer === 'app') return null;
  if (fromLayer !== 'lib' && isTest && to === 'app/store') return null;
  if (from === 'state/hooks' && to === 'app/store' && typeOnly) return null;
  if (toLayer === 'test' && !isTest) return 'only tests import the test harness (src/test)';
  if (FORBIDDEN[fromLayer]?.includes(toLayer)) return `${fromLayer}/ must not import ${toLayer}/ (it is a layer above)`;
  if (fromLayer === 'features' && toLayer === 'features' && toFeature !== fromFeature) {
    const module = [toFeature, ...rest].join('/');
    if (!FEATURE_PUBLIC.has(module)) {
      return `features/${fromFeature} may import features/${toFeature} only through its public modules (FEATURE_PUBLIC in eslint.config.js)`;
    }
  }
  return null;
}

const boundaries = {
  meta: { type: 'problem', docs: { description: 'Module boundaries between the layers of src/' }, schema: [] },
  create(context) {
    const from = srcModule('./' + path.basename(context.filename), context.filename);
    if (!from) return {};
    const isTest = /\.test\.tsx?$/.test(context.filename);
    const check = (node, typeOnly) => {
      if (typeof node.source?.value !== 'string') return;
      const to = srcModule(node.source.value, context.filename);
      const why = to && violation(from, to, { isTest, typeOnly });
      if (why) context.report({ node: node.source, message: `'${node.source.value}': ${why}.` });
    };
    const allTypes = (node) =>
      node.importKind === 'type' ||
      (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'));
    return {
      ImportDeclaration: (node) => check(node, allTypes(node)),
      ExportNamedDeclaration: (node) => check(node, node.exportKind === 'type'),
      ExportAllDeclaration: (node) => check(node, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, false),
    };
  },
};

export default defineConfig(
  { ignores: ['dist/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, navalha: { rules: { boundaries } } },
    rules: {
      // The classic hook rules only (not the React Compiler set of recommended-latest).
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'navalha/boundaries': 'error',
    },
  },
  {
    // Playwright specs drive the built app from outside: nothing from src/.
    files: ['e2e/**/*.ts'],
    languageOptions: { globals: globals.node },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(@/|(\\.\\./)+src/)', message: 'e2e specs test the app from outside: no imports from src/.' }] },
      ],
    },
  },
  { files: ['*.config.{js,ts}', 'scripts/**/*.mjs'], languageOptions: { globals: globals.node } },
);
