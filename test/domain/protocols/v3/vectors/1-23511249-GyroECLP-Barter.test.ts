import { eclpVectorPool } from '../../../../helpers/v3EclpVector';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('1-23511249-GyroECLP-Barter.json');

describe(`${vector.file}: a mainnet V3 Gyro E-CLP (WETH and an 18-decimal token, 50% aggregate swap fee) at block ${vector.pool.blockNumber}`, () => {
  vectorCases(vector, eclpVectorPool(vector.pool));
});
