/**
 * Hardhat runs only as the local devnet's EVM (in-process for the end-to-end suite, `hardhat node`
 * for `npm run demo`); nothing is compiled with it. The chain id and the default funded test
 * accounts are what src/devnet relies on for its deterministic addresses.
 */
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
      // A call or gas estimate without `from` runs from the zero address, as on mainnet nodes and
      // anvil (hardhat's default is the first account). Balancer V3's router queries need it: the
      // Vault answers a query only when tx.origin is zero, else it reverts with NotStaticCall.
      from: '0x0000000000000000000000000000000000000000',
      // Wallets and the e2e suite send legacy and EIP-1559 transactions; keep fees predictable.
      initialBaseFeePerGas: 1_000_000_000,
      mining: { auto: true },
      // The Balancer V3 Vault compiled with the default Yul steps is 25,266 bytes (src/devnet/v3/compile.ts).
      allowUnlimitedContractSize: true,
      // The demo starts its chain before the current week (src/devnet/gauges.ts explains why).
      ...(process.env.DEVNET_GENESIS_DATE ? { initialDate: process.env.DEVNET_GENESIS_DATE } : {}),
    },
  },
};
