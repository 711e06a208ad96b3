import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readImportGraph } from './importGraph';
import { checkLayers, describeViolations, type Layer } from './layers';
import { SOURCE_LAYERS } from './sourceLayers';

const ROOT = join(__dirname, '..', '..');

function writeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'bps-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const FIXTURE_LAYERS: readonly Layer[] = [
  { name: 'low', units: ['src/low/'] },
  { name: 'high', units: ['src/high/', 'src/top.ts'] },
];

describe('the layer check', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('reports an import circle, even through a type-only import', () => {
    root = writeTree({
      'src/low/a.ts': "import type { B } from './b';\nexport type A = B[];\n",
      'src/low/b.ts': "import { a } from './a';\nexport type B = typeof a;\n",
    });
    const report = checkLayers(readImportGraph(root), FIXTURE_LAYERS);
    expect(report.fileCircles).toEqual([['src/low/a.ts', 'src/low/b.ts']]);
    expect(report.upward).toEqual([]);
  });

  it('reports an import that goes up a layer, and a circle between folders of one layer', () => {
    root = writeTree({
      'src/low/util.ts': "export { top } from '../top';\n",
      'src/top.ts': 'export const top = 1;\n',
      'src/high/one.ts': "import '../high/two';\nexport const one = 1;\n",
      'src/high/two.ts': "export const two = () => import('../top');\n",
      'src/top2.ts': '',
    });
    const report = checkLayers(readImportGraph(root), [...FIXTURE_LAYERS, { name: 'root', units: ['src/top2.ts'] }]);
    expect(report.upward).toEqual(['src/low/util.ts -> src/top.ts (low -> high)']);
    expect(report.fileCircles).toEqual([]);

    const circular = checkLayers(
      new Map([
        ['src/high/x.ts', ['src/top.ts']],
        ['src/top.ts', ['src/high/y.ts']],
        ['src/high/y.ts', []],
      ]),
      FIXTURE_LAYERS,
    );
    expect(circular.fileCircles).toEqual([]);
    expect(circular.unitCircles).toEqual([['src/high/', 'src/top.ts']]);
  });

  it('reports a file no layer claims, so a new folder is placed on purpose', () => {
    root = writeTree({ 'src/elsewhere/x.ts': 'export const x = 1;\n' });
    expect(describeViolations(checkLayers(readImportGraph(root), FIXTURE_LAYERS))).toEqual([
      'file belongs to no layer (add its folder to test/architecture/sourceLayers.ts): src/elsewhere/x.ts',
    ]);
  });
});

describe('src/', () => {
  it('has no import circle and no import that goes up a layer', () => {
    expect(describeViolations(checkLayers(readImportGraph(ROOT), SOURCE_LAYERS))).toEqual([]);
  });

  it("keeps each Vault's routing to itself: routing/v2/ and routing/v3/ never import each other", () => {
    const vault = (file: string) => /^src\/routing\/(v[23])\//.exec(file)?.[1];
    const edges = [...readImportGraph(ROOT)].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));
    // Both import the shared routing/ files, so the check reads real edges.
    expect(edges.some(({ from, to }) => vault(from) === 'v2' && vault(to) === undefined)).toBe(true);
    expect(edges.some(({ from, to }) => vault(from) === 'v3' && vault(to) === undefined)).toBe(true);
    const across = edges.filter(({ from, to }) => vault(from) && vault(to) && vault(from) !== vault(to));
    expect(across.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });
});
