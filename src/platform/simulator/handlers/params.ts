import { HttpError } from './http-response';

/** Query-parameter parsing with the platform's behaviour: anything malformed is a 400. */

export function required(q: URLSearchParams, name: string): string {
  const v = q.get(name);
  if (v === null || v === '') throw new HttpError(400, `Required parameter '${name}' is missing`);
  return v;
}

export function steamIdParam(q: URLSearchParams, name = 'steamid'): string {
  const v = required(q, name);
  if (!/^\d{1,20}$/.test(v)) throw new HttpError(400, `Parameter '${name}' must be a 64-bit id`);
  return v;
}

/** Comma-separated steamids, de-duplicated in order; at most `max`. */
export function steamIdList(q: URLSearchParams, name: string, max: number): string[] {
  const ids = [
    ...new Set(
      required(q, name)
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (ids.length === 0) throw new HttpError(400, `Required parameter '${name}' is missing`);
  if (ids.length > max) throw new HttpError(400, `Too many ids in '${name}' (max ${max})`);
  for (const id of ids) if (!/^\d{1,20}$/.test(id)) throw new HttpError(400, `Invalid id in '${name}'`);
  return ids;
}

export function intParam(q: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const v = q.get(name);
  if (v === null || v === '') return fallback;
  if (!/^-?\d+$/.test(v)) throw new HttpError(400, `Parameter '${name}' must be an integer`);
  const n = Number(v);
  if (n < min || n > max) throw new HttpError(400, `Parameter '${name}' must be in ${min}..${max}`);
  return n;
}

export function boolParam(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  if (v === null || v === '' || v === '0' || v === 'false') return false;
  if (v === '1' || v === 'true') return true;
  throw new HttpError(400, `Parameter '${name}' must be a boolean`);
}

/** appids_filter as the indexed form (appids_filter[0]=10&appids_filter[1]=20) or a comma list; null if absent. */
export function appIdsFilter(q: URLSearchParams): Set<number> | null {
  const values: string[] = [];
  for (const [k, v] of q) {
    if (k === 'appids_filter' || /^appids_filter\[\d+\]$/.test(k)) values.push(...v.split(','));
  }
  if (values.length === 0) return null;
  const out = new Set<number>();
  for (const v of values.map((s) => s.trim()).filter((s) => s !== '')) {
    if (!/^\d+$/.test(v)) throw new HttpError(400, "Parameter 'appids_filter' must hold app ids");
    out.add(Number(v));
  }
  return out;
}
