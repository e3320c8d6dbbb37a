import { Controller, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { WireOperation } from '../common/wire/wire-operation.decorator';
import { Region } from './dto/locations.dto';
import { LocationDirectory } from './location-directory.service';

@ApiTags('location')
@Controller('v1')
export class LocationsController {
  constructor(private readonly directory: LocationDirectory) {}

  @WireOperation({
    operationId: 'location.getLocations',
    method: 'GET',
    summary: 'List available locations',
    description:
      '`GET`. A bare array: regions (continents) → countries (ISO code, name) → states (the platform’s code, name) → cities, ' +
      'named as the location filters of the leaderboards accept them (case-insensitive). Every country is listed; the states ' +
      'and cities are those the tracked accounts are from. Built once per process and served as it is; new places appear ' +
      'within the hour.',
    auth: 'any',
    bareResponse: { type: 'array', items: { $ref: '#/components/schemas/Region' } },
    extraModels: [Region],
    errors: [400, 401, 500],
  })
  async getLocations(@Res() res: Response): Promise<void> {
    res.type('application/json').send(await this.directory.json());
  }
}
