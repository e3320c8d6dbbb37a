import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class Card {
  @ApiProperty() name: string;
  @ApiProperty({ type: 'integer' }) amount: number;
}

export class InventorySet {
  @ApiProperty({ type: 'integer' }) appId: number;
  @ApiProperty({ type: [Card], nullable: true }) normal: Card[] | null;
  @ApiProperty({ type: [Card], nullable: true }) foil: Card[] | null;
  @ApiProperty({ type: 'integer', description: 'Complete normal sets (every card of the app at least once per set).' }) normalSets: number;
  @ApiProperty({ type: 'integer', description: 'Complete foil sets.' }) foilSets: number;
}

export class V1AccountListInventorySetsResponseBody {
  @ApiProperty({ type: [InventorySet], nullable: true }) sets: InventorySet[] | null;
  @ApiPropertyOptional({ type: 'integer', description: 'Last inventory refresh, Unix milliseconds.' }) inventoryUpdatedAt?: number;
  @ApiPropertyOptional({ type: 'integer', description: 'Earliest next refresh, Unix seconds.' }) nextRefreshAt?: number;
}
