import { JsonRpcProvider, JsonRpcSigner, Network, Wallet } from 'ethers';
import { devAccount, signedByNode } from '../../src/devnet/accounts';
import { startInProcessChain, type LocalChain } from '../../src/devnet/localChain';
import { FakeChainRpc } from '../fakes/chainRpcServer';

let chain: LocalChain;
beforeAll(() => {
  chain = startInProcessChain();
});
afterAll(async () => chain.close());

test('on a hardhat node the node signs for a dev account, and its transaction is sent from that account', async () => {
  const wallet = devAccount(3, chain.provider);
  const signer = await signedByNode(wallet);
  expect(signer).toBeInstanceOf(JsonRpcSigner);
  const to = Wallet.createRandom().address;
  const tx = await signer.sendTransaction({ to, value: 12345n });
  const receipt = await tx.wait();
  expect(receipt?.from.toLowerCase()).toBe(wallet.address.toLowerCase());
  expect(await chain.provider.getBalance(to)).toBe(12345n);
});

test('an account the node does not hold keeps its own key', async () => {
  const stranger = Wallet.createRandom().connect(chain.provider);
  expect(await signedByNode(stranger)).toBe(stranger);
});

test('a node that does not answer eth_accounts keeps the wallet, and no signer without a provider changes', async () => {
  const fake = await FakeChainRpc.start(`0x${'ba'.repeat(20)}`, []);
  const provider = new JsonRpcProvider(fake.url, Network.from(31337), { staticNetwork: true });
  try {
    const wallet = devAccount(1, provider);
    expect(await signedByNode(wallet)).toBe(wallet);
    const offline = devAccount(1);
    expect(await signedByNode(offline)).toBe(offline);
  } finally {
    provider.destroy();
    await fake.close();
  }
});
