// The structure rules of STYLE 15, checked on every run: imports between units run one way, and
// each table has one writing unit. The cycles and shared tables that exist today are listed
// below; they may only shrink. Breaking one up means deleting its line here.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  importCycles,
  type SourceFile,
  schemaTables,
  sourceFiles,
  tableWriters,
  unitImports,
  unitOf,
} from './source-graph.js';

const packages = fileURLToPath(new URL('../../../', import.meta.url));
const serverSrc = path.join(packages, 'server/src');
const webSrc = path.join(packages, 'web/src');

/** Import cycles known today (each may lose members, none may gain one or appear). */
const KNOWN_CYCLES: Record<string, readonly string[][]> = {
  server: [],
};

/** Tables written by more than one unit today (the set may only shrink). */
const KNOWN_SHARED_TABLES: Record<string, readonly string[]> = {};

/**
 * The web's one-way layers: a feature imports no other feature, `shared` imports only `api` and
 * `i18n`, and `api` only `i18n` (a lazy `import()` counts as an import).
 */
function webLayerBreaches(srcDir: string, files: readonly SourceFile[]): string[] {
  const breaches: string[] = [];
  for (const file of files) {
    for (const match of file.text.matchAll(/(?:\sfrom\s+|\bimport\(\s*)'(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file.path), match[1]!);
      const unit = unitOf(srcDir, `${target}.ts`);
      if (unit === file.unit || unit.startsWith('root:')) continue;
      const isBreach = file.unit.startsWith('features/')
        ? unit.startsWith('features/')
        : (file.unit === 'shared' && !['api', 'i18n'].includes(unit)) ||
          (file.unit === 'api' && unit !== 'i18n');
      if (isBreach) {
        breaches.push(`${path.relative(srcDir, file.path)} -> ${path.relative(srcDir, target)}`);
      }
    }
  }
  return breaches;
}

/** Cycles of `actual` not inside one known cycle. */
function newCycles(actual: string[][], known: readonly string[][]): string[][] {
  return actual.filter((group) => !known.some((k) => group.every((unit) => k.includes(unit))));
}

describe('the import graph', () => {
  it('finds a cycle through several units, and none in a one-way graph', () => {
    const graph = (pairs: [string, string][]) => {
      const edges = new Map<string, Set<string>>();
      for (const [a, b] of pairs) edges.set(a, new Set([...(edges.get(a) ?? []), b]));
      return edges;
    };
    expect(
      importCycles(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'a'],
          ['c', 'd'],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
    expect(
      importCycles(
        graph([
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'c'],
        ]),
      ),
    ).toEqual([]);
    expect(newCycles([['a', 'b', 'x']], [['a', 'b', 'c']])).toEqual([['a', 'b', 'x']]);
    expect(newCycles([['a', 'b']], [['a', 'b', 'c']])).toEqual([]);
  });

  it('keeps the web features apart: no feature imports another, shared and api import none', () => {
    const files = sourceFiles(webSrc);
    const offending = webLayerBreaches(webSrc, files);
    expect(files.length).toBeGreaterThan(100);
    expect(offending).toEqual([]);
  });

  it('flags a feature that imports another feature, statically or lazily', () => {
    const file = (rel: string, text: string) => ({
      path: path.join(webSrc, rel),
      unit: unitOf(webSrc, path.join(webSrc, rel)),
      text,
    });
    expect(
      webLayerBreaches(webSrc, [
        file('features/a/A.tsx', "import { B } from '../b/B';"),
        file('features/b/B.tsx', "const C = lazy(() => import('../c/C'));"),
        file('shared/ui/S.tsx', "import { A } from '../../features/a/A';"),
        file('api/x.ts', "import { S } from '../shared/ui/S';"),
        file('features/c/C.tsx', "import { S } from '../../shared/ui/S';"),
      ]),
    ).toEqual([
      'features/a/A.tsx -> features/b/B',
      'features/b/B.tsx -> features/c/C',
      'shared/ui/S.tsx -> features/a/A',
      'api/x.ts -> shared/ui/S',
    ]);
  });

  it.each([
    ['server', serverSrc],
    ['web', webSrc],
  ])('has no import cycle in %s beyond the known ones', (name, srcDir) => {
    const cycles = importCycles(unitImports(srcDir, sourceFiles(srcDir)));
    expect(newCycles(cycles, KNOWN_CYCLES[name] ?? [])).toEqual([]);
  });
});

describe('table writers', () => {
  it('each table is written by one unit, but for the known shared ones', () => {
    const tables = schemaTables(path.join(serverSrc, 'db/schema'));
    expect(tables.size).toBeGreaterThan(20);
    const writers = tableWriters(sourceFiles(serverSrc), tables);
    expect(writers.get('bots')).toBeDefined();
    const extra: Record<string, string[]> = {};
    for (const [table, units] of writers) {
      const allowed = KNOWN_SHARED_TABLES[table];
      const beyond = allowed ? [...units].filter((u) => !allowed.includes(u)) : [];
      if (beyond.length > 0 || (!allowed && units.size > 1)) extra[table] = [...units].sort();
    }
    expect(extra).toEqual({});
  });
});

/** The backticked names on the README line that starts with `- <label>:`, or undefined. */
function readmeList(text: string, label: string): string[] | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`- ${label}:`));
  if (line === undefined) return undefined;
  return [...line.matchAll(/`([^`]+)`/g)].map((m) => m[1]!).sort();
}

describe('unit READMEs', () => {
  // Each server unit says in its README what it owns and what it may import, in two lines that
  // this test holds to the code: a new table writer or import means updating the README too.
  it('name the tables each unit writes and the units it imports', () => {
    const files = sourceFiles(serverSrc);
    const sqlNames = new Map<string, string>();
    for (const file of sourceFiles(path.join(serverSrc, 'db/schema'))) {
      for (const m of file.text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)) {
        sqlNames.set(m[1]!, m[2]!);
      }
    }
    const owned = new Map<string, string[]>();
    for (const [table, units] of tableWriters(
      files,
      schemaTables(path.join(serverSrc, 'db/schema')),
    )) {
      for (const unit of units) owned.set(unit, [...(owned.get(unit) ?? []), sqlNames.get(table)!]);
    }
    const imports = unitImports(serverSrc, files);
    const shown = (unit: string) => (unit.startsWith('root:') ? `${unit.slice(5)}.ts` : unit);
    const units = [...new Set(files.map((f) => f.unit))].filter((u) => !u.startsWith('root:'));
    expect(units.length).toBeGreaterThan(20);
    const wrong: Record<string, unknown> = {};
    for (const unit of units.sort()) {
      const readme = path.join(serverSrc, unit, 'README.md');
      if (!existsSync(readme)) {
        wrong[unit] = 'no README.md';
        continue;
      }
      const text = readFileSync(readme, 'utf8');
      const owns = readmeList(text, 'Owns');
      const mayImport = readmeList(text, 'May import');
      const actualOwns = (owned.get(unit) ?? []).sort();
      const actualImports = [...(imports.get(unit) ?? [])].map(shown).sort();
      if (JSON.stringify(owns) !== JSON.stringify(actualOwns)) {
        wrong[`${unit} owns`] = { readme: owns, code: actualOwns };
      }
      if (JSON.stringify(mayImport) !== JSON.stringify(actualImports)) {
        wrong[`${unit} may import`] = { readme: mayImport, code: actualImports };
      }
    }
    expect(wrong).toEqual({});
  });

  it('reads the two lines of a README', () => {
    const text = '# x\n\n- Owns: `bots`, `bot_trades`\n- May import: no other unit\n';
    expect(readmeList(text, 'Owns')).toEqual(['bot_trades', 'bots']);
    expect(readmeList(text, 'May import')).toEqual([]);
    expect(readmeList(text, 'Imports')).toBeUndefined();
  });
});
