import { vaultInterface } from '../../../src/routing/v2/vaultAbi';

/** `Vault.batchSwap` calldata back to plain values, with the Vault's ABI (not our encoder). */
export function decode(data: string) {
  const d = vaultInterface.decodeFunctionData('batchSwap', data);
  return {
    kind: Number(d[0]),
    swaps: (d[1] as unknown[][]).map((s) => ({
      poolId: s[0],
      assetInIndex: Number(s[1]),
      assetOutIndex: Number(s[2]),
      amount: (s[3] as bigint).toString(),
      userData: s[4],
    })),
    assets: [...(d[2] as string[])],
    funds: [...(d[3] as unknown[])],
    limits: [...(d[4] as bigint[])],
    deadline: Number(d[5]),
  };
}
