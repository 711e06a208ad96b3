import { eclpVectorPool } from '../../../../helpers/v3EclpVector';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('11155111-7748718-GyroECLP.json');

describe(`${vector.file}: a V3 Gyro E-CLP (two 18-decimal tokens, price range 0.9985..1.0002) at block ${vector.pool.blockNumber}`, () => {
  vectorCases(vector, eclpVectorPool(vector.pool));
});
