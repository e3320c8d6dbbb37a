import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import { INT32_MAX } from './bounds';

/** Most app ids one filter may name. */
export const MAX_APP_IDS = 500;

/**
 * An optional, nullable list of app ids (int32, at most MAX_APP_IDS): the document's schema and the
 * class-validator checks in one place, so every filter of apps states and enforces the same bounds.
 */
export function AppIdList(description?: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'integer', format: 'int32', minimum: 0, maximum: INT32_MAX },
      maxItems: MAX_APP_IDS,
      nullable: true,
      ...(description ? { description } : {}),
    }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_APP_IDS),
    IsInt({ each: true }),
    Min(0, { each: true }),
    Max(INT32_MAX, { each: true }),
  );
}
