import { id } from 'ethers';
import type { ChainEvent } from '../../domain/poolTypes/chainReads';

/** The log topic a pool type's event is filtered by: the hash of its signature. */
export function eventTopic(event: ChainEvent): string {
  return id(event.signature);
}
