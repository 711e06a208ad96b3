import { Router } from 'express';
import type { AllowListVerdict } from './contractAllowList';
import { HttpError } from '../http/errors';
import { REASONS } from '../http/errorReasons';
import type { SimulatorClient } from '../sources/simulator/SimulatorClient';
import { UpstreamError } from '../sources/upstream';
import {
  encodeStatesBody,
  ENCODE_STATES_FIELDS,
  parsePassThroughBody,
  SIMULATE_FIELDS,
  simulateBody,
} from './requestShapes';
import { trimSimulation } from './trimSimulation';
import { upstreamMessage } from './upstreamMessage';

export interface SimulationPolicy {
  /** Whether `networkId` (sent as `field`) names a chain this service simulates on. */
  checkChain(networkId: unknown, field: string): { ok: true } | { ok: false; error: string };
  /** Whether a simulation on `networkId` may call `to`. */
  checkTarget(networkId: unknown, to: string): AllowListVerdict;
  /** Pass `save` / `save_if_fails` through; otherwise both are sent as false. */
  readonly allowSave: boolean;
}

/**
 * `POST /simulator/contracts/encode-states` and `POST /simulator/simulate`: allow-listed
 * pass-throughs to the simulation provider. Bad bodies are refused before any upstream call.
 */
export function simulatorRouter(client: SimulatorClient | undefined, policy: SimulationPolicy): Router {
  const r = Router();

  const requireClient = (): SimulatorClient => {
    if (!client) {
      throw new HttpError(
        503,
        'the simulator is not configured on this deployment (set SIMULATOR_USER, SIMULATOR_PROJECT and SIMULATOR_ACCESS_KEY)',
        {},
        { reason: REASONS.NOT_CONFIGURED },
      );
    }
    return client;
  };

  r.post('/simulator/contracts/encode-states', async (req, res) => {
    const parsed = parsePassThroughBody(encodeStatesBody, ENCODE_STATES_FIELDS, 'encode-states', req.body);
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    const chain = policy.checkChain(parsed.body.networkID, 'networkID');
    if (!chain.ok) throw new HttpError(400, chain.error);
    const answer = await forward(() => requireClient().encodeStates(parsed.body));
    res.json(answer);
  });

  r.post('/simulator/simulate', async (req, res) => {
    const parsed = parsePassThroughBody(simulateBody, SIMULATE_FIELDS, 'simulate', req.body);
    if (!parsed.ok) throw new HttpError(400, parsed.error);
    const target = policy.checkTarget(parsed.body.network_id, parsed.body.to as string);
    if (!target.ok) throw new HttpError(400, target.error);
    // A saved simulation is kept (and billed) in the operator's account.
    const body = policy.allowSave ? parsed.body : { ...parsed.body, save: false, save_if_fails: false };
    const answer = await forward(() => requireClient().simulate(body));
    res.json(trimSimulation(answer));
  });

  return r;
}

/** A provider 4xx means the simulation itself was refused: pass its reason on as a 502. */
async function forward(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof UpstreamError && e.status !== undefined && e.status >= 400 && e.status < 500) {
      const message = upstreamMessage(e.body) ?? `HTTP ${e.status}`;
      throw new HttpError(502, `simulator refused the request (HTTP ${e.status}): ${message}`);
    }
    throw e;
  }
}
