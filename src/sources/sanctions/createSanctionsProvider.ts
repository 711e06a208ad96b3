import type { Config } from '../../config/env';
import { CHAINALYSIS_DEFAULT_BASE_URL, chainalysisProvider } from './chainalysis';
import type { SanctionsProvider } from './SanctionsProvider';
import { TRM_DEFAULT_BASE_URL, trmProvider } from './trm';

/** The configured provider, or undefined when no API key is set (the route then answers 503). */
export function createSanctionsProvider(config: Config['sanctions']): SanctionsProvider | undefined {
  if (!config.apiKey) return undefined;
  if (config.provider === 'trm') return trmProvider(config.apiUrl || TRM_DEFAULT_BASE_URL, config.apiKey);
  return chainalysisProvider(config.apiUrl || CHAINALYSIS_DEFAULT_BASE_URL, config.apiKey);
}
