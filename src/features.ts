import { errorTrackingFeature } from './errorTracking/feature';
import type { FeatureFactory } from './http/feature';
import { armourFeature } from './http/armour/feature';
import { sanctionsFeature } from './sanctions/feature';
import { simulatorFeature } from './simulator/feature';
import { headFollowFeature } from './jobs/triggers/headFollowFeature';
import { poolUpdateFeature } from './jobs/triggers/poolUpdateFeature';
import { priceAndDecorationFeature } from './jobs/triggers/priceAndDecorationFeature';
import { createInternalJobsFeature } from './jobs/triggers/scheduler/schedulerFeature';
import { INTERNAL_JOB_RUNNERS } from './jobs/triggers/scheduler/jobRunners';
import { routingFeature } from './routing/routingFeature';
import { graphqlFeature } from './graphql/feature';

/**
 * Every feature of the service, in mount order. Features import the `Feature` type from
 * src/http/feature.ts, never this list.
 */
export const FEATURES: readonly FeatureFactory[] = [
  // First, so its headers, rate limits and job secret apply before any other feature's middleware.
  armourFeature,
  errorTrackingFeature,
  poolUpdateFeature,
  headFollowFeature,
  priceAndDecorationFeature,
  createInternalJobsFeature({ jobs: INTERNAL_JOB_RUNNERS }),
  routingFeature,
  graphqlFeature,
  sanctionsFeature,
  simulatorFeature,
];
