import {
  Contract,
  ContractFactory,
  getCreateAddress,
  Interface,
  InterfaceAbi,
  JsonRpcApiProvider,
  parseUnits,
  Provider,
  Signer,
} from 'ethers';
import { devAccount, signedByNode } from './accounts';
import { Artifact, deploymentArtifact } from './artifacts';
import { GOVERNANCE_TOKEN_SYMBOL } from './deploy';
import { DeployError } from './deployTools';
import { Devnet, DevnetPool, tokenBySymbol } from './devnet';

/**
 * Balancer's liquidity-mining system on the devnet, from the audited builds in
 * @balancer-labs/v2-deployments: BalancerTokenAdmin (BAL inflation), VotingEscrow (veBAL),
 * GaugeController (weights), BalancerMinter, the veBAL boost proxy and capped LiquidityGaugeV5
 * gauges for some pools, with BPT staked in them and reward tokens streaming. The service reads
 * it through its gauge source exactly as on mainnet.
 *
 * A gauge's weight counts from the week after it is set (GaugeController's weekly schedule), so the
 * chain must start before the current week began (`gaugeGenesis`); once the gauges are set, the
 * chain jumps to the wall clock and the weights are current. Everything is deployed by its own
 * account (`GAUGE_ADMIN_INDEX`, nonce 0), so the addresses do not move when the pool universe
 * grows; chains.ts lists them and a test keeps the two in step.
 */
export const WEEK = 604_800;
/** Hardhat's default test account that deploys and administers the gauge system. */
export const GAUGE_ADMIN_INDEX = 9;

export interface GaugeSpec {
  /** Pool name in universe.ts. */
  readonly pool: string;
  /** Controller weight (relative to the other gauges). */
  readonly weight: number;
  /** Relative weight cap (fraction): the share of all BAL emissions the gauge can receive. */
  readonly cap: string;
  /** Share of the deployer's BPT staked in the gauge. */
  readonly stake: string;
  /** Reward tokens streamed to the gauge, per week, in human units. */
  readonly rewards: readonly { readonly symbol: string; readonly perWeek: string }[];
}

/**
 * Weights of 1 each would send half of all emissions to each gauge; the caps keep them to what a
 * pool of this size gets on mainnet, so the demo's APRs look like real ones.
 */
export const DEV_GAUGES: readonly GaugeSpec[] = [
  { pool: 'WETH-USDC 50/50', weight: 1, cap: '0.002', stake: '0.5', rewards: [{ symbol: 'LINK', perWeek: '100' }] },
  {
    pool: 'DAI-USDC-USDT stable',
    weight: 1,
    cap: '0.001',
    stake: '0.5',
    rewards: [{ symbol: 'USDC', perWeek: '500' }],
  },
];

export interface DevnetGaugeAddresses {
  readonly authorizerAdaptor: string;
  readonly balancerTokenAdmin: string;
  readonly votingEscrow: string;
  readonly gaugeController: string;
  readonly balancerMinter: string;
  readonly veBoostProxy: string;
  readonly gaugeImplementation: string;
  readonly gaugeFactory: string;
}

export interface DevnetGauge {
  readonly address: string;
  readonly poolId: string;
  readonly poolAddress: string;
}

export interface DevnetGauges {
  readonly addresses: DevnetGaugeAddresses;
  readonly gauges: readonly DevnetGauge[];
}

const TASKS = {
  AuthorizerAdaptor: '20220325-authorizer-adaptor',
  BalancerTokenAdmin: '20220325-balancer-token-admin',
  VotingEscrow: '20220325-gauge-controller',
  GaugeController: '20220325-gauge-controller',
  BalancerMinter: '20220325-gauge-controller',
  VotingEscrowDelegationProxy: '20220325-ve-delegation',
  LiquidityGaugeV5: '20220822-mainnet-gauge-factory-v2',
  LiquidityGaugeFactory: '20220822-mainnet-gauge-factory-v2',
} as const;

function artifact(name: keyof typeof TASKS): Artifact {
  return deploymentArtifact(TASKS[name], name);
}

function abi(name: keyof typeof TASKS): InterfaceAbi {
  return artifact(name).abi;
}

export function expectedGaugeAddresses(admin: string = devAccount(GAUGE_ADMIN_INDEX).address): DevnetGaugeAddresses {
  const at = (nonce: number) => getCreateAddress({ from: admin, nonce }).toLowerCase();
  return {
    authorizerAdaptor: at(0),
    balancerTokenAdmin: at(1),
    votingEscrow: at(2),
    gaugeController: at(3),
    balancerMinter: at(4),
    veBoostProxy: at(5),
    gaugeImplementation: at(6),
    gaugeFactory: at(7),
  };
}

export function weekStart(seconds: number): number {
  return Math.floor(seconds / WEEK) * WEEK;
}

/** Genesis time for a chain that will carry gauges: ten minutes before the current week began. */
export function gaugeGenesis(nowSeconds: number): number {
  return weekStart(nowSeconds) - 600;
}

async function mined(tx: Promise<{ wait(): Promise<{ status?: number | null } | null> }>, what: string): Promise<void> {
  const receipt = await (await tx).wait();
  if (!receipt || receipt.status !== 1) throw new DeployError(`${what}: transaction failed`);
}

async function deployAt(
  signer: Signer,
  name: keyof typeof TASKS,
  args: unknown[],
  expected: string,
): Promise<Contract> {
  const a = artifact(name);
  const contract = await new ContractFactory(a.abi, a.bytecode, signer).deploy(...args);
  await contract.waitForDeployment();
  const address = (await contract.getAddress()).toLowerCase();
  if (address !== expected)
    throw new DeployError(
      `${name} landed at ${address}, expected ${expected}: has the gauge admin account sent transactions before?`,
    );
  return contract as Contract;
}

function poolNamed(devnet: Devnet, name: string): DevnetPool {
  const p = devnet.pools.find((x) => x.name === name);
  if (!p)
    throw new DeployError(
      `gauges.ts names unknown pool '${name}' (pools: ${devnet.pools.map((x) => x.name).join(', ')})`,
    );
  return p;
}

const ERC20 = [
  'function approve(address spender, uint256 amount) returns (bool)',
  'function balanceOf(address) view returns (uint256)',
  'function mint(address to, uint256 amount)',
];
const ROLES = [
  'function grantRole(bytes32 role, address account)',
  'function grantRoles(bytes32[] roles, address account)',
];

/**
 * Deploys the gauge system onto a devnet whose chain time is still before the current week (see
 * `gaugeGenesis`), then brings the chain to the wall clock. The devnet deployer (account 0) grants
 * the Authorizer roles, hands BAL to the token admin and stakes its BPT; the gauge admin deploys,
 * sets the weights and streams the rewards.
 */
export async function deployGauges(
  provider: JsonRpcApiProvider,
  devnet: Devnet,
  specs: readonly GaugeSpec[] = DEV_GAUGES,
): Promise<DevnetGauges> {
  const deployer = await signedByNode(devAccount(0, provider));
  const admin = await signedByNode(devAccount(GAUGE_ADMIN_INDEX, provider));
  const adminAddress = await admin.getAddress();
  const want = expectedGaugeAddresses(adminAddress);
  const nowSeconds = Math.floor(Date.now() / 1000);
  const head = await provider.getBlock('latest');
  if (!head || head.timestamp >= weekStart(nowSeconds)) {
    throw new DeployError(
      'gauge weights set now would only count from next week: start the chain before the current week began (gaugeGenesis)',
    );
  }
  const bal = tokenBySymbol(devnet, GOVERNANCE_TOKEN_SYMBOL).address;
  const veBalPool = devnet.pools.find((p) => p.tokens.includes(bal) && p.tokens.includes(devnet.addresses.weth));
  if (!veBalPool) throw new DeployError('the devnet has no BAL/WETH pool for veBAL to lock');

  const adaptor = await deployAt(admin, 'AuthorizerAdaptor', [devnet.addresses.vault], want.authorizerAdaptor);
  const tokenAdmin = await deployAt(
    admin,
    'BalancerTokenAdmin',
    [devnet.addresses.vault, bal],
    want.balancerTokenAdmin,
  );
  await deployAt(
    admin,
    'VotingEscrow',
    [veBalPool.address, 'Vote Escrowed Balancer BPT', 'veBAL', want.authorizerAdaptor],
    want.votingEscrow,
  );
  const controller = await deployAt(
    admin,
    'GaugeController',
    [want.votingEscrow, want.authorizerAdaptor],
    want.gaugeController,
  );
  await deployAt(admin, 'BalancerMinter', [want.balancerTokenAdmin, want.gaugeController], want.balancerMinter);
  await deployAt(
    admin,
    'VotingEscrowDelegationProxy',
    [devnet.addresses.vault, want.votingEscrow, '0x0000000000000000000000000000000000000000'],
    want.veBoostProxy,
  );
  await deployAt(
    admin,
    'LiquidityGaugeV5',
    [want.balancerMinter, want.veBoostProxy, want.authorizerAdaptor],
    want.gaugeImplementation,
  );
  const factory = await deployAt(admin, 'LiquidityGaugeFactory', [want.gaugeImplementation], want.gaugeFactory);

  // Roles: the admin may activate inflation and act as the gauge system's owner through the adaptor.
  const controllerAbi = new Interface(abi('GaugeController'));
  const gaugeAbi = new Interface(abi('LiquidityGaugeV5'));
  const selector = (i: Interface, signature: string) => i.getFunction(signature)!.selector;
  const roles = [
    String(await tokenAdmin.getFunction('getActionId')(selector(new Interface(abi('BalancerTokenAdmin')), 'activate'))),
    ...(await Promise.all(
      [
        selector(controllerAbi, 'add_type(string,uint256)'),
        selector(controllerAbi, 'add_gauge(address,int128,uint256)'),
        selector(gaugeAbi, 'add_reward'),
      ].map(async (s) => String(await adaptor.getFunction('getActionId')(s))),
    )),
  ];
  const authorizer = new Contract(devnet.addresses.authorizer, ROLES, deployer);
  await mined(authorizer.getFunction('grantRoles')(roles, adminAddress), 'granting the gauge admin its roles');
  const balToken = new Contract(bal, ROLES, deployer);
  await mined(
    balToken.getFunction('grantRole')(`0x${'00'.repeat(32)}`, want.balancerTokenAdmin),
    'making the token admin a BAL admin',
  );
  await mined(tokenAdmin.getFunction('activate')(), 'activating BAL inflation');

  const act = (target: string, data: string, what: string) =>
    mined(adaptor.getFunction('performAction')(target, data), what);
  await act(
    want.gaugeController,
    controllerAbi.encodeFunctionData('add_type(string,uint256)', ['Ethereum', parseUnits('1', 18)]),
    'adding the gauge type',
  );

  const gauges: DevnetGauge[] = [];
  for (const spec of specs) {
    const pool = poolNamed(devnet, spec.pool);
    const tx = await factory.getFunction('create')(pool.address, parseUnits(spec.cap, 18));
    const receipt = await tx.wait();
    const created = receipt?.logs
      .map((l: { topics: string[]; data: string }) => factory.interface.parseLog(l))
      .find((l: { name?: string } | null) => l?.name === 'GaugeCreated');
    if (!created) throw new DeployError(`${spec.pool}: the gauge factory emitted no GaugeCreated`);
    const gauge = String(created.args[0]).toLowerCase();
    await act(
      want.gaugeController,
      controllerAbi.encodeFunctionData('add_gauge(address,int128,uint256)', [gauge, 0, BigInt(spec.weight)]),
      `adding the ${spec.pool} gauge`,
    );
    for (const r of spec.rewards) {
      await act(
        gauge,
        gaugeAbi.encodeFunctionData('add_reward', [tokenBySymbol(devnet, r.symbol).address, adminAddress]),
        `adding ${r.symbol} rewards to ${spec.pool}`,
      );
    }
    const bpt = new Contract(pool.address, ERC20, deployer);
    const held = (await bpt.getFunction('balanceOf')(await deployer.getAddress())) as bigint;
    const stake = (held * parseUnits(spec.stake, 18)) / 10n ** 18n;
    await mined(bpt.getFunction('approve')(gauge, stake), `approving ${spec.pool} BPT`);
    await mined(
      new Contract(gauge, gaugeAbi, deployer).getFunction('deposit(uint256)')(stake),
      `staking ${spec.pool} BPT`,
    );
    gauges.push({ address: gauge, poolId: pool.id, poolAddress: pool.address });
  }

  // The weights count from this week on: bring the chain to the wall clock.
  const latest = (await provider.getBlock('latest'))!.timestamp;
  await provider.send('evm_setNextBlockTimestamp', [Math.max(latest + 1, Math.floor(Date.now() / 1000))]);
  await provider.send('evm_mine', []);
  for (const g of gauges) await mined(controller.getFunction('checkpoint_gauge')(g.address), 'checkpointing a gauge');

  // Rewards stream for a week from now.
  for (const [i, spec] of specs.entries()) {
    for (const r of spec.rewards) {
      const token = tokenBySymbol(devnet, r.symbol);
      const amount = parseUnits(r.perWeek, token.decimals);
      await mined(
        new Contract(token.address, ERC20, deployer).getFunction('mint')(adminAddress, amount),
        `minting ${r.symbol} rewards`,
      );
      await mined(
        new Contract(token.address, ERC20, admin).getFunction('approve')(gauges[i]!.address, amount),
        `approving ${r.symbol} rewards`,
      );
      await mined(
        new Contract(gauges[i]!.address, gaugeAbi, admin).getFunction('deposit_reward_token')(token.address, amount),
        `streaming ${r.symbol} rewards`,
      );
    }
  }
  return { addresses: want, gauges };
}

/** The gauge system of a running devnet, or undefined when it has none. */
export async function readGauges(provider: Provider): Promise<DevnetGauges | undefined> {
  const addresses = expectedGaugeAddresses();
  if ((await provider.getCode(addresses.gaugeController)) === '0x') return undefined;
  const controller = new Contract(addresses.gaugeController, abi('GaugeController'), provider);
  const count = Number(await controller.getFunction('n_gauges')());
  const gauges: DevnetGauge[] = [];
  for (let i = 0; i < count; i++) {
    const address = String(await controller.getFunction('gauges')(i)).toLowerCase();
    const poolAddress = String(
      await new Contract(address, abi('LiquidityGaugeV5'), provider).getFunction('lp_token')(),
    ).toLowerCase();
    const poolId = String(
      await new Contract(poolAddress, ['function getPoolId() view returns (bytes32)'], provider).getFunction(
        'getPoolId',
      )(),
    ).toLowerCase();
    gauges.push({ address, poolId, poolAddress });
  }
  return { addresses, gauges };
}

/** Gauges for a devnet that was deployed just now; an existing gauge system is read back. */
export async function ensureGauges(provider: JsonRpcApiProvider, devnet: Devnet): Promise<DevnetGauges> {
  return (await readGauges(provider)) ?? deployGauges(provider, devnet);
}
