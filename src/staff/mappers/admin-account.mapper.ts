import { StoredLocation } from '../../account-records/location/account-location';
import { HistoryValue, V1AccountLocationUpdate, V1AccountNameUpdate, V1AccountVanityUpdate } from '../dto/admin.dto';

/** An `account_history` row as admin.getAccount reads it (account-records/history). */
export interface HistoryRow {
  kind: 'name' | 'vanity' | 'location';
  old: unknown;
  new: unknown;
  changed_at: Date;
}

const value = (old: unknown, next: unknown): HistoryValue => ({
  old: typeof old === 'string' ? old : null,
  new: typeof next === 'string' ? next : null,
});

const field = (old: unknown, next: unknown, key: keyof StoredLocation): HistoryValue => {
  const of = (location: unknown) => {
    const v = (location as Partial<StoredLocation> | null)?.[key];
    return v === null || v === undefined ? null : String(v);
  };
  return { old: of(old), new: of(next) };
};

/** The three histories of an account, each newest first (the rows come newest first). */
export function toHistories(rows: readonly HistoryRow[]): {
  nameUpdates: V1AccountNameUpdate[];
  vanityUpdates: V1AccountVanityUpdate[];
  locationUpdates: V1AccountLocationUpdate[];
} {
  const nameUpdates: V1AccountNameUpdate[] = [];
  const vanityUpdates: V1AccountVanityUpdate[] = [];
  const locationUpdates: V1AccountLocationUpdate[] = [];
  for (const row of rows) {
    const updatedAt = row.changed_at.toISOString();
    if (row.kind === 'name') nameUpdates.push({ name: value(row.old, row.new), updatedAt });
    else if (row.kind === 'vanity') vanityUpdates.push({ vanity: value(row.old, row.new), updatedAt });
    else
      locationUpdates.push({
        city: field(row.old, row.new, 'cityName'),
        countryCode: field(row.old, row.new, 'countryCode'),
        countryName: field(row.old, row.new, 'countryName'),
        region: field(row.old, row.new, 'region'),
        state: field(row.old, row.new, 'stateName'),
        updatedAt,
      });
  }
  return { nameUpdates, vanityUpdates, locationUpdates };
}
