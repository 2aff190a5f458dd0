// The structure rules of STYLE 15, checked on every run: imports between units run one way, and
// each table has one writing unit. The cycles and shared tables that exist today are listed
// below; they may only shrink. Breaking one up means deleting its line here.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  importCycles,
  schemaTables,
  sourceFiles,
  tableWriters,
  unitImports,
} from './source-graph.js';

const packages = fileURLToPath(new URL('../../../', import.meta.url));
const serverSrc = path.join(packages, 'server/src');
const webSrc = path.join(packages, 'web/src');

/** Import cycles known today (each may lose members, none may gain one or appear). */
const KNOWN_CYCLES: Record<string, readonly string[][]> = {
  server: [],
  web: [
    [
      'api',
      'app',
      'features/accounts',
      'features/bots',
      'features/dashboard',
      'features/security',
      'features/square',
      'features/wallet',
    ],
  ],
};

/** Tables written by more than one unit today (the set may only shrink). */
const KNOWN_SHARED_TABLES: Record<string, readonly string[]> = {};

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
