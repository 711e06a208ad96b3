import { Contract, parseUnits, ZeroAddress, ZeroHash, type Provider, type Signer } from 'ethers';
import { deploy, DeployError, mined } from '../deployTools';
import type { DevnetToken, DevnetV3Addresses, DevnetV3Pool } from '../devnet';
import { v3Abi, v3Artifact } from './artifacts';
import type { V3Contracts } from './compile';
import { V3_FACTORY_PAUSE_WINDOW, V3_LBPS, type V3FixedPriceLbpSpec, type V3LbpSpec } from './universe';

/**
 * The devnet's V3 token sales: the LBP factories (the Router their trusted router, no migration
 * router: the sales are not migrated) and the sales of universe.ts `V3_LBPS`, each created with its
 * window a little ahead, seeded by its owner through the Router before it opens, and then opened
 * by moving the chain's clock to its start.
 */

const version = (name: string, v: number) => JSON.stringify({ name, version: v, deployment: 'devnet-v3' });
const units = (amount: string, decimals: number) => parseUnits(amount, decimals);

/** Both factories, at the admin's next nonces (`devnetV3.ts` APPENDED_ORDER). */
export async function deployLbpFactories(
  admin: Signer,
  contracts: V3Contracts,
  want: DevnetV3Addresses,
): Promise<void> {
  const base = (name: string, pool: string) => [
    want.vault,
    V3_FACTORY_PAUSE_WINDOW,
    version(name, 1),
    version(pool, 1),
    want.router,
  ];
  // The weighted LBP's factory also names a migration router; the fixed-price one has none.
  await deploy(
    admin,
    v3Artifact(contracts, 'LBPoolFactory'),
    [...base('LBPoolFactory', 'LBPool'), ZeroAddress],
    'LBPoolFactory',
    want.lbPoolFactory,
  );
  await deploy(
    admin,
    v3Artifact(contracts, 'FixedPriceLBPoolFactory'),
    base('FixedPriceLBPoolFactory', 'FixedPriceLBPool'),
    'FixedPriceLBPoolFactory',
    want.fixedPriceLbPoolFactory,
  );
}

/** What the owner seeds the sales with, token by token. */
export function lbpSeeds(): { readonly symbol: string; readonly balance: string }[] {
  return V3_LBPS.flatMap((s) => [s.projectToken, s.reserveToken]);
}

interface Deps {
  readonly admin: Signer;
  readonly provider: Provider;
  readonly contracts: V3Contracts;
  readonly addresses: DevnetV3Addresses;
  readonly router: Contract;
  tokenOf(symbol: string): DevnetToken;
}

function createArgs(spec: V3LbpSpec | V3FixedPriceLbpSpec, common: unknown, fee: bigint): unknown[] {
  if (spec.kind === 'fixedPriceLbp') return [common, units(spec.projectTokenRate, 18), fee, ZeroHash, ZeroAddress];
  const start = units(spec.projectStartWeight, 18);
  const end = units(spec.projectEndWeight, 18);
  const one = 10n ** 18n;
  // LBPParams: project start, reserve start, project end, reserve end, reserve virtual balance (0: seeded).
  const lbpParams = [start, one - start, end, one - end, 0n];
  return [common, lbpParams, fee, ZeroHash, ZeroAddress];
}

async function createSale(d: Deps, spec: V3LbpSpec | V3FixedPriceLbpSpec, startTime: number): Promise<DevnetV3Pool> {
  const owner = await d.admin.getAddress();
  const project = d.tokenOf(spec.projectToken.symbol);
  const reserve = d.tokenOf(spec.reserveToken.symbol);
  const factory =
    spec.kind === 'lbp'
      ? new Contract(d.addresses.lbPoolFactory, v3Abi(d.contracts, 'LBPoolFactory'), d.admin)
      : new Contract(d.addresses.fixedPriceLbPoolFactory, v3Abi(d.contracts, 'FixedPriceLBPoolFactory'), d.admin);
  const blocked = spec.kind === 'fixedPriceLbp' || spec.blockProjectTokenSwapsIn;
  // LBPCommonParams: name, symbol, owner, project token, reserve token, start, end, project token swaps in blocked.
  const common = [
    spec.name,
    spec.symbol,
    owner,
    project.address,
    reserve.address,
    startTime,
    startTime + spec.duration,
    blocked,
  ];
  const receipt = await mined(
    factory.getFunction('create')(...createArgs(spec, common, units(spec.swapFee, 18))),
    `creating ${spec.name}`,
  );
  const event = receipt.logs.map((l) => factory.interface.parseLog(l)).find((l) => l?.name === 'PoolCreated');
  if (!event) throw new DeployError(`${spec.name}: factory emitted no PoolCreated`);
  const address = String(event.args[0]).toLowerCase();
  const seeded = [
    { token: project, amount: units(spec.projectToken.balance, project.decimals) },
    { token: reserve, amount: units(spec.reserveToken.balance, reserve.decimals) },
  ].sort((x, y) => (x.token.address < y.token.address ? -1 : 1));
  await mined(
    d.router.getFunction('initialize')(
      address,
      seeded.map((s) => s.token.address),
      seeded.map((s) => s.amount),
      0n,
      false,
      '0x',
    ),
    `seeding ${spec.name}`,
  );
  return { address, kind: spec.kind, name: spec.name, symbol: spec.symbol, tokens: seeded.map((s) => s.token.address) };
}

/**
 * Creates and seeds every sale with its window `startsIn` seconds after the head, then mines a
 * block at the latest start so every sale is open (a jump of the clock by at most `startsIn`).
 */
export async function createLbps(d: Deps): Promise<DevnetV3Pool[]> {
  const head = await d.provider.getBlock('latest');
  if (!head) throw new DeployError('the devnet node has no latest block');
  const pools: DevnetV3Pool[] = [];
  let opens = 0;
  for (const spec of V3_LBPS) {
    const start = head.timestamp + spec.startsIn;
    pools.push(await createSale(d, spec, start));
    opens = Math.max(opens, start);
  }
  const now = (await d.provider.getBlock('latest'))?.timestamp ?? 0;
  if (now < opens) {
    const rpc = d.provider as Provider & { send(method: string, params: unknown[]): Promise<unknown> };
    await rpc.send('evm_setNextBlockTimestamp', [opens]);
    await rpc.send('evm_mine', []);
  }
  return pools;
}
