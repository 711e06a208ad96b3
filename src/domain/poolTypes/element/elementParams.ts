import type { ParamField, SpecOf, SpecParamsOf, StoredParamsOf } from '../paramField';

/** Element (principal token) pools: the term and the two tokens it trades. */
export const ELEMENT_PARAMS = [
  {
    name: 'expiryTime',
    subgraph: 'BigInt',
    stored: 'int',
    absent: 'null',
    graphql: { scalar: 'Float', description: "Unix seconds (Float: Element pools' values exceed 32-bit Int)." },
  },
  { name: 'unitSeconds', subgraph: 'BigInt', stored: 'int', absent: 'null', graphql: { scalar: 'Float' } },
  { name: 'principalToken', subgraph: 'Bytes', stored: 'address', absent: 'null' },
  { name: 'baseToken', subgraph: 'Bytes', stored: 'address', absent: 'null' },
] as const satisfies readonly ParamField[];

export type ElementSpecParams = SpecParamsOf<typeof ELEMENT_PARAMS>;
export type ElementStoredParams = StoredParamsOf<typeof ELEMENT_PARAMS>;

/** What its model reads: the core fields and these. */
export type ElementSpec = SpecOf<typeof ELEMENT_PARAMS>;
