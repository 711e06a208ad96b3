import { readFileSync } from 'node:fs';

/**
 * `npx tsx test/bench/lib/heapCounts.ts a.heapsnapshot b.heapsnapshot [...]`: what grew between
 * heap snapshots (the soak's `--heapsnapshot-signal`, or `v8.writeHeapSnapshot`). Prints the live
 * total of each, then nodes by type and constructor name with their count and self size in each,
 * the largest growth first.
 * `--retainers 'object:Timeout' x.heapsnapshot`: what points at nodes of that type and name, by the
 * holder and the edge.
 * A snapshot is taken after a full collection, so it shows what is live, not garbage. Node's
 * default heap holds a snapshot of a few hundred MiB; give it more with NODE_OPTIONS.
 */
interface Snapshot {
  readonly snapshot: {
    readonly meta: {
      readonly node_fields: string[];
      readonly node_types: [string[], ...unknown[]];
      readonly edge_fields: string[];
      readonly edge_types: [string[], ...unknown[]];
    };
  };
  readonly nodes: number[];
  readonly edges: number[];
  readonly strings: string[];
}

const STRING_TYPES = new Set(['string', 'concatenated string', 'sliced string']);

function read(file: string): Snapshot {
  return JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
}

function field(fields: string[], name: string): number {
  const at = fields.indexOf(name);
  if (at < 0) throw new Error(`a heap snapshot without the node or edge field ${name}`);
  return at;
}

/** A node's group: strings, code and numbers as one each, else its type and name. */
function groupOf(s: Snapshot, node: number): string {
  const { node_fields: nf, node_types: nt } = s.snapshot.meta;
  const type = nt[0][s.nodes[node + field(nf, 'type')]!]!;
  if (STRING_TYPES.has(type)) return '(string)';
  if (type === 'code' || type === 'number') return `(${type})`;
  return `${type}:${String(s.strings[s.nodes[node + field(nf, 'name')]!]).slice(0, 60)}`;
}

function counts(s: Snapshot): Map<string, { count: number; bytes: number }> {
  const nf = s.snapshot.meta.node_fields;
  const width = nf.length;
  const size = field(nf, 'self_size');
  const out = new Map<string, { count: number; bytes: number }>();
  for (let n = 0; n < s.nodes.length; n += width) {
    const key = groupOf(s, n);
    const entry = out.get(key) ?? { count: 0, bytes: 0 };
    entry.count++;
    entry.bytes += s.nodes[n + size]!;
    out.set(key, entry);
  }
  return out;
}

function retainers(s: Snapshot, wanted: string): Map<string, number> {
  const { node_fields: nf, edge_fields: ef, edge_types: et } = s.snapshot.meta;
  const width = nf.length;
  const edgeWidth = ef.length;
  const edgeCount = field(nf, 'edge_count');
  const [eType, eName, eTo] = [field(ef, 'type'), field(ef, 'name_or_index'), field(ef, 'to_node')];
  const out = new Map<string, number>();
  let e = 0;
  for (let n = 0; n < s.nodes.length; n += width) {
    const holder = groupOf(s, n);
    for (let k = 0; k < s.nodes[n + edgeCount]!; k++, e += edgeWidth) {
      if (groupOf(s, s.edges[e + eTo]!) !== wanted) continue;
      const type = et[0][s.edges[e + eType]!]!;
      const name = type === 'element' || type === 'hidden' ? '[]' : s.strings[s.edges[e + eName]!];
      const key = `${holder} --${type}:${name}-->`;
      out.set(key, (out.get(key) ?? 0) + 1);
    }
  }
  return out;
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

function main(args: string[]): void {
  if (args[0] === '--retainers') {
    const [, wanted, file] = args;
    if (!wanted || !file) throw new Error("usage: --retainers 'type:Name' x.heapsnapshot");
    const rows = [...retainers(read(file), wanted)].sort((a, b) => b[1] - a[1]).slice(0, 40);
    for (const [holder, n] of rows) process.stdout.write(`${String(n).padStart(8)}  ${holder}\n`);
    return;
  }
  if (args.length < 2) throw new Error('usage: a.heapsnapshot b.heapsnapshot [...]');
  const all = args.map((f) => counts(read(f)));
  const totals = all.map((c) => [...c.values()].reduce((t, x) => t + x.bytes, 0));
  process.stdout.write(`live MiB: ${totals.map(mib).join(' -> ')}\n`);
  const first = all[0]!;
  const last = all[all.length - 1]!;
  const grown = (k: string) => (last.get(k)?.bytes ?? 0) - (first.get(k)?.bytes ?? 0);
  const keys = [...new Set([...first.keys(), ...last.keys()])].sort((a, b) => grown(b) - grown(a));
  for (const k of keys.slice(0, Number(process.env.TOP ?? 30))) {
    const n = all.map((c) => c.get(k)?.count ?? 0).join(' -> ');
    const kib = all.map((c) => ((c.get(k)?.bytes ?? 0) / 1024).toFixed(0)).join(' -> ');
    process.stdout.write(`${n.padEnd(30)} | ${kib.padEnd(24)} KiB | ${k}\n`);
  }
}

main(process.argv.slice(2));
