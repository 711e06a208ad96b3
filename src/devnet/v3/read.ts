import { Contract, Provider } from 'ethers';
import type { DevnetToken, DevnetV3, DevnetV3Buffer, DevnetV3Pool } from '../devnet';
import { expectedV3Addresses, expectedV3WrappedAddresses } from './devnetV3';

/**
 * The V3 side of a devnet already running (a `npm run demo` node reused through LOCALFORK_URL),
 * read back from its fixed addresses: the factories list their pools, the Vault their tokens.
 */
const FACTORY = ['function getPools() view returns (address[])'];
const VAULT = ['function getPoolTokens(address pool) view returns (address[])'];
const ERC20 = [
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function asset() view returns (address)',
];

export async function readDevnetV3(provider: Provider): Promise<DevnetV3 | undefined> {
  const addresses = expectedV3Addresses();
  if ((await provider.getCode(addresses.vault)) === '0x') return undefined;
  const vault = new Contract(addresses.vault, VAULT, provider);
  const pools: DevnetV3Pool[] = [];
  for (const [kind, factory] of [
    ['weighted', addresses.weightedPoolFactory],
    ['stable', addresses.stablePoolFactory],
    ['lbp', addresses.lbPoolFactory],
    ['fixedPriceLbp', addresses.fixedPriceLbPoolFactory],
  ] as const) {
    // A node deployed before the token sales existed has no code there: no pools of theirs.
    if ((await provider.getCode(factory)) === '0x') continue;
    const created = (await new Contract(factory, FACTORY, provider).getFunction('getPools')()) as string[];
    for (const address of created) {
      const pool = new Contract(address, ERC20, provider);
      const tokens = (await vault.getFunction('getPoolTokens')(address)) as string[];
      pools.push({
        address: address.toLowerCase(),
        kind,
        name: String(await pool.getFunction('name')()),
        symbol: String(await pool.getFunction('symbol')()),
        tokens: tokens.map((t) => t.toLowerCase()),
      });
    }
  }
  const tokens: DevnetToken[] = [];
  const buffers: DevnetV3Buffer[] = [];
  for (const w of expectedV3WrappedAddresses()) {
    const token = new Contract(w.wrapped, ERC20, provider);
    tokens.push({
      symbol: String(await token.getFunction('symbol')()),
      name: String(await token.getFunction('name')()),
      decimals: Number(await token.getFunction('decimals')()),
      address: w.wrapped,
    });
    const underlying = String(await token.getFunction('asset')()).toLowerCase();
    buffers.push({ symbol: w.symbol, wrapped: w.wrapped, underlying, rateProvider: w.rateProvider });
  }
  return { addresses, tokens, buffers, pools };
}
