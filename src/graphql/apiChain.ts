import { GraphQLError } from 'graphql';
import type { AppContext } from '../appContext';
import { BALANCER_API_CHAINS, chainById, type ChainInfo } from '../config/chains';

/**
 * A `GqlChain` name (the current Balancer API's) as one of this deployment's chains. A name whose
 * chain is not enabled here (NETWORKS) is a GraphQL error naming the argument and what is served.
 */
export function apiChain(app: AppContext, name: unknown, argument = 'chain'): ChainInfo {
  const id = typeof name === 'string' ? BALANCER_API_CHAINS[name] : undefined;
  const enabled = app.config.chains.map((c) => `${c.id}`).join(', ');
  if (id === undefined)
    throw new GraphQLError(
      `${argument}: ${JSON.stringify(name)} is not a GqlChain (${Object.keys(BALANCER_API_CHAINS).join(', ')})`,
      { extensions: { code: 'BAD_USER_INPUT' } },
    );
  const chain = app.config.chains.find((c) => c.id === id);
  if (!chain)
    throw new GraphQLError(
      `${argument}: ${name} (chain ${id}${chainById(id) ? `, ${chainById(id)!.name}` : ''}) is not enabled on this service (enabled chain ids: ${enabled}; ${chainById(id) ? 'set NETWORKS' : 'the service has no contracts for it'})`,
      { extensions: { code: 'CHAIN_NOT_ENABLED' } },
    );
  return chain;
}
