import { Connection } from '../../account-records/dto/profile-records.dto';
import { sqlJsonObject, sqlJsonScalar, sqlJsonString } from '../../common/wire/sql-json-text';
import { AccountConnectionEntity } from '../entities/account-connection.entity';

export function toConnection(row: AccountConnectionEntity): Connection {
  return {
    connectionId: row.connectionId,
    externalId: row.externalId,
    provider: row.provider,
    name: row.name,
    avatar: row.avatar,
    failed: row.failed,
    hide: row.hidden,
    verified: row.verified,
  };
}

/** The same object as JSON text written by PostgreSQL (`c` an account_connections row), for the profile's text. */
export const CONNECTION_JSON_SQL = sqlJsonObject([
  ['connectionId', sqlJsonString('c.connection_id')],
  ['externalId', sqlJsonString('c.external_id')],
  ['provider', sqlJsonString('c.provider')],
  ['name', sqlJsonString('c.name')],
  ['avatar', sqlJsonString('c.avatar')],
  ['failed', sqlJsonScalar('c.failed')],
  ['hide', sqlJsonScalar('c.hidden')],
  ['verified', sqlJsonScalar('c.verified')],
]);
