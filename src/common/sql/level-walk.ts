/**
 * Paging in "value descending, then account ascending" order (owners by copies held, by minutes played) over a
 * B-tree index on (group, value, account_id), at a cost that does not grow with the group.
 *
 * One index cannot serve that order directly: scanned backwards it yields the accounts of equal values in
 * *descending* order, and sorting a level would read all of it (most owners of a card hold exactly one copy). So the
 * walk goes one level (one distinct value) at a time, highest first: a `max(value) < previous` probe finds the next
 * level, a count capped at the rows still wanted sizes it, and each level is read forward by account id. A page
 * touches `skip + take` index entries plus two probes per level, whatever the group's size.
 *
 * Parameters: $1 the groups (array of `groupType`), $2 rows to skip from the start position, $3 rows to take per
 * group, $4/$5 an optional start position (value, account id: the page starts after it; NULL starts at the top).
 * Returns `grp`, `value`, `account_id` and `columns`, ordered by group, value descending, account id; a group may
 * return more than $3 rows (trim them).
 */
export function levelWalkSql(spec: { table: string; group: string; groupType: string; value: string; columns: string[] }): string {
  const { table, group, value } = spec;
  const level = (grp: string, at: string, after: string, cap: string) =>
    `(SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE ${group} = ${grp} AND ${value} = ${at} AND account_id > ${after} LIMIT ${cap}) x)`;
  return `
    WITH RECURSIVE levels(grp, value, after, before, size) AS (
        SELECT g.grp, f.value, f.after, 0::bigint, ${level('g.grp', 'f.value', 'f.after', '$2::int + $3::int')}
          FROM unnest($1::${spec.groupType}[]) AS g(grp)
         CROSS JOIN LATERAL (
           SELECT COALESCE($4::int, (SELECT max(${value}) FROM ${table} WHERE ${group} = g.grp)) AS value,
                  CASE WHEN $4::int IS NULL THEN -1 ELSE $5::int END AS after) f
         WHERE f.value IS NOT NULL
      UNION ALL
        SELECT l.grp, n.value, -1, l.before + l.size, ${level('l.grp', 'n.value', '-1', '$2::int + $3::int')}
          FROM levels l
         CROSS JOIN LATERAL (SELECT max(${value}) AS value FROM ${table} WHERE ${group} = l.grp AND ${value} < l.value) n
         WHERE l.before + l.size < $2::int + $3::int AND n.value IS NOT NULL)
    SELECT l.grp, l.value, r.account_id${spec.columns.map((column) => `, r.${column}`).join('')}
      FROM levels l
     CROSS JOIN LATERAL (
       SELECT account_id${spec.columns.map((column) => `, ${column}`).join('')} FROM ${table}
        WHERE ${group} = l.grp AND ${value} = l.value AND account_id > l.after
        ORDER BY account_id OFFSET GREATEST($2::int - l.before, 0) LIMIT $3::int) r
     WHERE l.before + l.size > $2::int
     ORDER BY l.grp, l.value DESC, r.account_id`;
}
