import { bufferVectorCases } from '../../../../helpers/v3BufferVectorCases';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('buffer-manual.json');

// Taken on Sepolia in October 2024 from a Vault deployed before the launch one: it priced
// through the token's previews without the 1-wei guards.
describe(`${vector.file}: a Sepolia buffer at block ${vector.pool.blockNumber}, a pre-launch Vault's unguarded pricing`, () => {
  bufferVectorCases(vector, 'unguarded');
});
