import { atHeadSuite } from './helpers/atHead';

/**
 * The same orders with the follower polling every 250 ms and no subscription: only `/order`
 * waiting for the head it asked the node for can make them exact (helpers/atHead.ts).
 */
atHeadSuite('polling');
