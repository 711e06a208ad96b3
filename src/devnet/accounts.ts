import { HDNodeWallet, JsonRpcApiProvider, JsonRpcSigner, Mnemonic, Provider, Signer } from 'ethers';

/**
 * The well-known development mnemonic: hardhat (and anvil) fund its first accounts with 10 000 ETH,
 * so the same keys work in-process, against `hardhat node` and against any LOCALFORK_URL node
 * started with defaults. Never use these keys on a real network.
 */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** Account 0 deploys everything (fixed nonces -> fixed addresses); 1.. are funded traders. */
export const DEPLOYER_INDEX = 0;
export const TRADER_COUNT = 4;
/**
 * Deploys the devnet's Lido-shaped stETH and wstETH (nonces 0 and 1) before the Balancer stack, whose
 * BatchRelayerLibrary takes wstETH in its constructor; its own account keeps every other address put.
 */
export const LIDO_ADMIN_INDEX = 8;
/**
 * Deploys the liquidity bootstrapping pool factory (nonce 0), the tokens on sale and their pools
 * after everything else, from its own account so no other devnet address moves.
 */
export const LBP_ADMIN_INDEX = 7;
/**
 * Deploys the Balancer V3 stack (Permit2, Vault, routers, factories), its ERC-4626 tokens and pools
 * after the V2 devnet, from its own account so no V2 address moves (v3/devnetV3.ts).
 */
export const V3_ADMIN_INDEX = 11;

let root: HDNodeWallet | undefined;

export function devAccount(index: number, provider: Provider | null = null): HDNodeWallet {
  // Deriving from the phrase costs a PBKDF2 run; derive the account level once.
  root ??= HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(DEV_MNEMONIC), "m/44'/60'/0'/0");
  return root.deriveChild(index).connect(provider);
}

export function traderAccounts(provider: Provider | null = null): HDNodeWallet[] {
  return Array.from({ length: TRADER_COUNT }, (_, i) => devAccount(i + 1, provider));
}

const unlockedBy = new WeakMap<JsonRpcApiProvider, Promise<ReadonlySet<string>>>();

function unlockedAccounts(provider: JsonRpcApiProvider): Promise<ReadonlySet<string>> {
  let accounts = unlockedBy.get(provider);
  if (!accounts) {
    accounts = provider.send('eth_accounts', []).then(
      (list: string[]) => new Set(list.map((a) => a.toLowerCase())),
      () => new Set<string>(),
    );
    unlockedBy.set(provider, accounts);
  }
  return accounts;
}

/**
 * `signer` with the node signing for it when the node holds its key (hardhat unlocks the
 * mnemonic's first 20 accounts, anvil its first 10), else `signer` as it is. A devnet deploy sends
 * about 260 transactions; signed here (secp256k1, RLP and keccak in JS), they took 4 of its 9 s.
 */
export async function signedByNode(signer: Signer): Promise<Signer> {
  const provider = signer.provider;
  if (signer instanceof JsonRpcSigner || !(provider instanceof JsonRpcApiProvider)) return signer;
  const address = await signer.getAddress();
  return (await unlockedAccounts(provider)).has(address.toLowerCase()) ? new JsonRpcSigner(provider, address) : signer;
}
