import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ROLES } from '../account.enums';

export const CONNECTION_PROVIDERS = ['discord', 'patreon', 'kick', 'reddit', 'twitch', 'youtube', 'x', 'domain'] as const;
export const IMAGE_TYPES = ['avatar', 'background', 'avatar_frame', 'animated_avatar', 'mini_background'] as const;

export class Connection {
  @ApiProperty({ example: '123456' }) connectionId: string;
  @ApiProperty({ example: '123456' }) externalId: string;
  @ApiProperty({ enum: CONNECTION_PROVIDERS }) provider: (typeof CONNECTION_PROVIDERS)[number];
  @ApiProperty() name: string;
  @ApiProperty() avatar: string;
  @ApiProperty() failed: boolean;
  @ApiProperty() hide: boolean;
  @ApiProperty() verified: boolean;
}

export class Image {
  @ApiProperty({ description: 'Only one image per type is active.' }) active: boolean;
  @ApiProperty({
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08.png',
    description: 'The stored image, served at `GET /images/<fileName>`: the SHA-256 of its bytes and its format.',
  })
  fileName: string;
  @ApiProperty({ example: 'img_wasd123' }) imageId: string;
  @ApiProperty({ enum: IMAGE_TYPES }) imageType: (typeof IMAGE_TYPES)[number];
}

export class RoleRecord {
  @ApiProperty({ enum: ROLES }) role: (typeof ROLES)[number];
  @ApiProperty({ type: 'integer', description: 'Higher means higher precedence.' }) rating: number;
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true }) extras: Record<string, unknown> | null;
}

export class LocationName {
  @ApiProperty() name: string;
}

export class CountryName {
  @ApiProperty({ example: 'Germany' }) name: string;
  @ApiPropertyOptional({ example: 'DE' }) code?: string;
}
