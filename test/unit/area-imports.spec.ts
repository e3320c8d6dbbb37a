import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import * as ts from 'typescript';

/**
 * The areas under src/ import one another one way only (docs/architecture.md, "Areas and the way they import"): the
 * graph of imports between them has no cycle. An area is a folder directly under src/; each file at src/'s top level
 * (an entrypoint or a root module) is a node of its own. A cycle is reported with one import per edge, so the fix
 * (move the shared piece below both, or name an entity instead of importing it) can start from the file named.
 */
const SRC = join(__dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The node a file belongs to: its folder under src/, or the file itself at the top. */
function nodeOf(file: string): string {
  const [first, ...rest] = relative(SRC, file).split('/');
  return rest.length > 0 ? `${first}/` : first.replace(/\.ts$/, '');
}

/** Every import between two nodes, as `from node → to node` with the first file seen making it. */
function nodeImports(): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const target = fileName.startsWith('.')
        ? normalize(join(dirname(file), fileName))
        : fileName.startsWith('src/')
          ? join(SRC, '..', fileName)
          : null;
      if (!target || relative(SRC, target).startsWith('..')) continue;
      const [from, to] = [nodeOf(file), nodeOf(`${target}.ts`)];
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${relative(SRC, file)} imports ${fileName}`);
    }
  }
  return edges;
}

/** The strongly connected components of more than one node (Tarjan): each is a set of nodes importing each other. */
function cycles(edges: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('imports between the areas of src/', () => {
  const edges = nodeImports();

  it('should see the areas and their imports', () => {
    // Guards the scan itself: a parse that found nothing would make the next test pass vacuously.
    expect(edges.get('accounts/')?.has('account-records/')).toBe(true);
    expect(edges.get('api.module')?.has('accounts/')).toBe(true);
    expect(edges.size).toBeGreaterThan(20);
  });

  it('should run one way: no two areas import each other, directly or through others', () => {
    const report = cycles(edges).map((component) =>
      component.flatMap((from) =>
        component.filter((to) => edges.get(from)?.has(to)).map((to) => `${from} → ${to}: ${edges.get(from)!.get(to)}`),
      ),
    );
    expect(report).toEqual([]);
  });
});
