import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { KV_KEY_PATTERN, KV_LIMITS, KV_NAMESPACE_PATTERN } from '../preference-limits';

const namespaceProperty = (description: string) => ({
  maxLength: 64,
  pattern: KV_NAMESPACE_PATTERN.source,
  example: 'ui',
  description: `${description} 1–64 characters: ASCII letters, digits, \`_ . : -\`, starting with a letter, a digit or \`_\`.`,
});
const keyProperty = (description: string) => ({
  maxLength: 128,
  pattern: KV_KEY_PATTERN.source,
  example: 'theme',
  description: `${description} 1–128 characters: ASCII letters, digits, \`_ . : @ / + -\`, starting with a letter, a digit or \`_\`.`,
});

export class KvSetRequestBody {
  @ApiProperty(namespaceProperty("Namespace this key lives under, e.g. 'ui' or 'wishlist'."))
  namespace: string;

  @ApiProperty(keyProperty('Key within the namespace.'))
  key: string;

  @ApiProperty({
    maxLength: KV_LIMITS.valueBytes,
    example: '{"theme":"dark"}',
    description:
      `Value to store (opaque string; JSON blobs are fine, written without line breaks: control characters are refused). At most ` +
      `${KV_LIMITS.valueBytes / 1024} KiB of UTF-8. An account holds at most ${KV_LIMITS.entriesPerAccount} entries, ` +
      `${KV_LIMITS.namespaceBytes / 1024} KiB of values per namespace and ${KV_LIMITS.accountBytes / 1024} KiB in all: a set past ` +
      'any of them is a 422 and changes nothing.',
  })
  value: string;
}

export class KvDeleteRequestBody {
  @ApiProperty(namespaceProperty('Namespace the key lives under.'))
  namespace: string;

  @ApiProperty(keyProperty('Key to delete; deleting a key that is not there changes nothing (still 204).'))
  key: string;
}

export class KvListRequestBody {
  @ApiPropertyOptional({
    ...namespaceProperty('Only return keys in this namespace; omit (or null) to return everything of the account.'),
    type: 'string',
    nullable: true,
  })
  namespace?: string | null;
}

export class KvListEntry {
  @ApiProperty({ example: 'ui' }) namespace: string;
  @ApiProperty({ example: 'theme' }) key: string;
  @ApiProperty({ example: '{"theme":"dark"}' }) value: string;
  @ApiProperty({ format: 'date-time', description: 'When the entry was last set.' }) updatedAt: string;
}

export class KvListResponseBody {
  @ApiProperty({
    type: [KvListEntry],
    description: `The stored key/value entries, by namespace and key (at most ${KV_LIMITS.entriesPerAccount}).`,
  })
  entries: KvListEntry[];
}
