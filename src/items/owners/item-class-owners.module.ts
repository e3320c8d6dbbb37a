import { Module } from '@nestjs/common';
import { ItemClassOwners } from './item-class-owners.service';

/** The maintained owner counts of item classes: written by the update worker, read by item.findOwners. */
@Module({ providers: [ItemClassOwners], exports: [ItemClassOwners] })
export class ItemClassOwnersModule {}
