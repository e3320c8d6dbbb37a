import { ApiProperty } from '@nestjs/swagger';

export class City {
  @ApiProperty({ example: 'Bad Krozingen' }) name: string;
}

export class State {
  @ApiProperty({ example: '01', description: 'The platform’s code of the state within its country.' }) code: string;
  @ApiProperty({ example: 'Baden-Wurttemberg' }) name: string;
  @ApiProperty({ type: [City], nullable: true }) cities: City[] | null;
}

export class Country {
  @ApiProperty({ example: 'DE', description: 'ISO 3166-1 alpha-2.' }) code: string;
  @ApiProperty({ example: 'Germany' }) name: string;
  @ApiProperty({ type: [State], nullable: true }) states: State[] | null;
}

export class Region {
  @ApiProperty({ example: 'Europe' }) name: string;
  @ApiProperty({ type: [Country], nullable: true }) countries: Country[] | null;
}
