import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// The source tree as the architecture checks see it: each file belongs to a unit (a top-level
// folder of `src`, or one module/feature: `modules/<name>`, `features/<name>`; a file directly in
// `src` is its own unit), and units import each other through relative imports.

export interface SourceFile {
  readonly path: string;
  readonly unit: string;
  readonly text: string;
}

/** Every non-test .ts/.tsx file under `srcDir`. */
export function sourceFiles(srcDir: string): SourceFile[] {
  const files: SourceFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) {
        files.push({ path: full, unit: unitOf(srcDir, full), text: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(srcDir);
  return files;
}

export function unitOf(srcDir: string, file: string): string {
  const parts = path.relative(srcDir, file).split(path.sep);
  if (parts.length === 1) return `root:${parts[0]!.replace(/\.tsx?$/, '')}`;
  if ((parts[0] === 'modules' || parts[0] === 'features') && parts.length > 2) {
    return `${parts[0]}/${parts[1]}`;
  }
  return parts[0]!;
}

/** Unit → the other units it imports from. */
export function unitImports(
  srcDir: string,
  files: readonly SourceFile[],
): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    for (const match of file.text.matchAll(/(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file.path), match[1]!).replace(/\.js$/, '');
      const unit = unitOf(srcDir, `${target}.ts`);
      if (unit === file.unit) continue;
      const set = edges.get(file.unit) ?? new Set<string>();
      set.add(unit);
      edges.set(file.unit, set);
    }
  }
  return edges;
}

/** The strongly connected groups of more than one unit (each an import cycle), sorted. */
export function importCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const nodes = new Set<string>([...edges.keys(), ...[...edges.values()].flatMap((s) => [...s])]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Table (its schema export name) → the units that insert, update or delete its rows. */
export function tableWriters(
  files: readonly SourceFile[],
  tables: ReadonlySet<string>,
): Map<string, Set<string>> {
  const writers = new Map<string, Set<string>>();
  for (const file of files) {
    for (const match of file.text.matchAll(/\.(?:insert|update|delete)\(\s*(\w+)\s*\)/g)) {
      const table = match[1]!;
      if (!tables.has(table)) continue;
      const set = writers.get(table) ?? new Set<string>();
      set.add(file.unit);
      writers.set(table, set);
    }
  }
  return writers;
}

/** The names of the tables declared in the schema folder. */
export function schemaTables(schemaDir: string): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(schemaDir)) {
    for (const match of file.text.matchAll(/export const (\w+) = pgTable\(/g)) names.add(match[1]!);
  }
  return names;
}
