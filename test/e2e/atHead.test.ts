import { atHeadSuite } from './helpers/atHead';

/** Orders asked the moment a receipt is in, the follower learning blocks from newHeads as the demo's does (helpers/atHead.ts). */
atHeadSuite('subscription');
