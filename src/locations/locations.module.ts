import { Module } from '@nestjs/common';
import { LocationDirectory } from './location-directory.service';
import { LocationsController } from './locations.controller';

/** The directory of places (`location.getLocations`): what the location boards accept, built once per process. */
@Module({
  controllers: [LocationsController],
  providers: [LocationDirectory],
})
export class LocationsModule {}
