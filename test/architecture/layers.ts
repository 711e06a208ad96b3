import type { ImportGraph } from './importGraph';

/**
 * The layering rule of docs/ARCHITECTURE.md as data. Layers are listed bottom first; a file may
 * import files of its own layer or of a lower one, never of a higher one. Each entry of `units` is a
 * folder (ending in '/') or a file; a file belongs to the longest entry that matches it, and every
 * file under the checked folder must belong to one, so a new folder has to be placed on purpose.
 */
export interface Layer {
  readonly name: string;
  readonly units: readonly string[];
}

export interface LayerReport {
  /** Import circles between files, each as the files on it. */
  readonly fileCircles: readonly (readonly string[])[];
  /** Circles between units (folders or files of the table) that no single file circle shows. */
  readonly unitCircles: readonly (readonly string[])[];
  /** Imports from a lower layer up to a higher one, as 'from -> to (layer -> layer)'. */
  readonly upward: readonly string[];
  /** Files that no unit of the table claims. */
  readonly unplaced: readonly string[];
}

export function unitOf(file: string, layers: readonly Layer[]): { unit: string; layer: number } | undefined {
  let best: { unit: string; layer: number } | undefined;
  layers.forEach((layer, index) => {
    for (const unit of layer.units) {
      const matches = unit.endsWith('/') ? file.startsWith(unit) : file === unit;
      if (matches && (!best || unit.length > best.unit.length)) best = { unit, layer: index };
    }
  });
  return best;
}

/** Strongly connected components with more than one member (or a member importing itself). */
export function circles(graph: ReadonlyMap<string, Iterable<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      const selfLoop = [...(graph.get(v) ?? [])].includes(v);
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

export function checkLayers(graph: ImportGraph, layers: readonly Layer[]): LayerReport {
  const upward: string[] = [];
  const unplaced: string[] = [];
  const unitGraph = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const source = unitOf(from, layers);
    if (!source) {
      unplaced.push(from);
      continue;
    }
    if (!unitGraph.has(source.unit)) unitGraph.set(source.unit, new Set());
    for (const to of targets) {
      const target = unitOf(to, layers);
      if (!target) continue; // reported as unplaced on its own
      if (target.layer > source.layer) {
        upward.push(`${from} -> ${to} (${layers[source.layer]!.name} -> ${layers[target.layer]!.name})`);
      }
      if (target.unit !== source.unit) unitGraph.get(source.unit)!.add(target.unit);
    }
  }
  const fileCircles = circles(graph);
  return { fileCircles, unitCircles: circles(unitGraph), upward: upward.sort(), unplaced: unplaced.sort() };
}

export function describeViolations(report: LayerReport): string[] {
  return [
    ...report.fileCircles.map((c) => `import circle between files: ${c.join(', ')}`),
    ...report.unitCircles.map((c) => `import circle between folders: ${c.join(', ')}`),
    ...report.upward.map((u) => `import goes up a layer: ${u}`),
    ...report.unplaced.map(
      (f) => `file belongs to no layer (add its folder to test/architecture/sourceLayers.ts): ${f}`,
    ),
  ];
}
