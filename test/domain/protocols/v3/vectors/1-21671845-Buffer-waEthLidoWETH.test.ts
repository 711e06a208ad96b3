import { bufferVectorCases } from '../../../../helpers/v3BufferVectorCases';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('1-21671845-Buffer-waEthLidoWETH.json');

describe(`${vector.file}: a mainnet buffer at block ${vector.pool.blockNumber}, the deployed Vault's guarded pricing`, () => {
  bufferVectorCases(vector, 'guarded');
});
