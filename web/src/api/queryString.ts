/** A query parameter's value; null, undefined and '' leave the parameter out. */
export type QueryValue = string | number | null | undefined;

/**
 * The query string of a read (without the '?'): the parameters in the order given, each
 * left out when it is not set (null, undefined or ''), so a call carries only the filters
 * that are on. 0 and other numbers are sent.
 */
export function queryString(params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  return search.toString();
}
