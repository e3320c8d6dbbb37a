import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DeveloperApp } from '../../account-settings/dto/account-settings.dto';
import { DEVELOPER_APP_ENVIRONMENTS, type DeveloperAppEnvironment } from '../../auth/entities/api-key.entity';

const KEY_ID = /^key_[0-9a-f]{12}$/;

export class V1AccountCreateDeveloperAppRequest {
  @ApiProperty({ minLength: 1, maxLength: 100, example: 'My App' })
  name: string;

  @ApiPropertyOptional({ maxLength: 500, example: 'Shows my badges on my stream overlay.', description: 'Empty when left out.' })
  description?: string;

  @ApiPropertyOptional({ enum: DEVELOPER_APP_ENVIRONMENTS, example: 'development', description: '`production` when left out.' })
  environment?: DeveloperAppEnvironment;
}

export class V1AccountCreateDeveloperAppBody {
  @ApiProperty({ type: DeveloperApp }) developerApp: DeveloperApp;

  @ApiProperty({
    example: 'sk_0123456789ab_Q2hhbmdlIG1lLCBJIGFtIGp1c3QgYW4gZXhhbXBsZSEhISE',
    description: 'The API key: send it as `Authorization: Bearer …`. Shown this once; only its hash is stored.',
  })
  apiKey: string;
}

export class V1AccountUpdateDeveloperAppRequest {
  @ApiProperty({ maxLength: 16, pattern: KEY_ID.source, example: 'key_0123456789ab', description: 'The app’s `keyId`.' })
  keyId: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 100, example: 'My App' })
  name?: string;

  @ApiPropertyOptional({ maxLength: 500, example: 'Shows my badges on my stream overlay.' })
  description?: string;

  @ApiPropertyOptional({ enum: DEVELOPER_APP_ENVIRONMENTS, example: 'production' })
  environment?: DeveloperAppEnvironment;
}

export class V1AccountDeleteDeveloperAppRequest {
  @ApiProperty({ maxLength: 16, pattern: KEY_ID.source, example: 'key_0123456789ab', description: 'The app’s `keyId`.' })
  keyId: string;
}
