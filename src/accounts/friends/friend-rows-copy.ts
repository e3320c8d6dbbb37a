import { Readable } from 'node:stream';
import { ClientBase } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { FriendRows } from './friend-adjacency';

/**
 * Every stored friendship row, streamed with one `COPY … TO STDOUT` (text: "account\tfriend\n", ~14 bytes a row)
 * and parsed byte by byte as it arrives: a million accounts' ~6 million rows in a few seconds, with none of the
 * per-row objects a SELECT would build. `started` receives the stream, so that a caller can destroy it.
 */
export async function copyFriendRows(client: ClientBase, started?: (stream: Readable) => void): Promise<FriendRows> {
  const { rows: estimate } = await client.query<{ rows: string }>(
    `SELECT greatest(reltuples, 0)::bigint AS rows FROM pg_class WHERE oid = 'account_friends'::regclass`,
  );
  const rows = new FriendRows(Number(estimate[0]?.rows ?? 0) + 1024);
  const stream = client.query(copyTo('COPY account_friends (account_id, friend_account_id) TO STDOUT'));
  started?.(stream);
  let value = 0;
  let account = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>)
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === 10) {
        rows.push(account, value);
        value = 0;
      } else if (byte === 9) {
        account = value;
        value = 0;
      } else value = value * 10 + (byte - 48);
    }
  return rows;
}
