/**
 * The route template and chain id of a request, for error-tracker tags: `/pools/:chainId/:id`
 * groups all pool lookups into one issue, and the chain id comes from the matched `:chainId`
 * segment. Unmatched paths (404s) are reported as such rather than by their raw text.
 */
export function routeTemplate(baseUrl: string, routePath: unknown): string {
  if (typeof routePath === 'string') return `${baseUrl}${routePath}` || '/';
  if (Array.isArray(routePath) && typeof routePath[0] === 'string') return `${baseUrl}${routePath[0]}`;
  return '(unmatched)';
}

export function chainIdFromPath(template: string, path: string): number | undefined {
  const names = template.split('/');
  const values = path.split('/');
  if (names.length !== values.length && !(values.length === names.length + 1 && values[values.length - 1] === ''))
    return undefined;
  const i = names.indexOf(':chainId');
  if (i < 0) return undefined;
  const raw = values[i] ?? '';
  return /^\d{1,12}$/.test(raw) ? Number(raw) : undefined;
}
