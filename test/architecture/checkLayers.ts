import { join } from 'node:path';
import { readImportGraph } from './importGraph';
import { checkLayers, describeViolations } from './layers';
import { SOURCE_LAYERS } from './sourceLayers';

/** `npm run layers`: lists every import circle and upward import in src/, exits 1 if there is one. */
const root = join(__dirname, '..', '..');
const graph = readImportGraph(root);
const problems = describeViolations(checkLayers(graph, SOURCE_LAYERS));
for (const p of problems) process.stdout.write(`${p}\n`);
process.stdout.write(
  problems.length === 0
    ? `layers: ${graph.size} files, no circle, no upward import\n`
    : `layers: ${problems.length} problems\n`,
);
process.exit(problems.length === 0 ? 0 : 1);
