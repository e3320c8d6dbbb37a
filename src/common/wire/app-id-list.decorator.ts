import { ApiPropertyOptional } from '@nestjs/swagger';
import { INT32_MAX } from './bounds';

/** Most app ids one filter may name. */
export const MAX_APP_IDS = 500;

/** An optional, nullable list of app ids (int32, at most MAX_APP_IDS): every filter of apps states the same bounds. */
export function AppIdList(description?: string): PropertyDecorator {
  return ApiPropertyOptional({
    type: 'array',
    items: { type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX },
    maxItems: MAX_APP_IDS,
    nullable: true,
    ...(description ? { description } : {}),
  });
}
