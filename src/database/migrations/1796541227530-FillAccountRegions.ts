import { MigrationInterface, QueryRunner } from 'typeorm';
import { countryRegionTable } from '../../platform/country-regions';

/**
 * Data, not schema (written by hand): every stored account with a country gets the region the refresh pipeline now
 * derives from it (platform/country-regions.ts), in one set-based statement over a table of the ~250 codes. The rank engine's boards are rebuilt by the processes that
 * boot on this release (its rank build format, rank-engine.service.ts), so the region boards fill without a command.
 */
export class FillAccountRegions1796541227530 implements MigrationInterface {
  name = 'FillAccountRegions1796541227530';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const table = countryRegionTable();
    const codes = table.map(([code]) => code);
    const regions = table.map(([, region]) => region);
    await queryRunner.query(
      `UPDATE accounts a SET region = m.region
         FROM unnest($1::text[], $2::text[]) AS m(code, region)
        WHERE a.country_code = m.code AND a.region IS DISTINCT FROM m.region`,
      [codes, regions],
    );
  }

  public async down(): Promise<void> {
    // The regions stay: they are what the code derives, and nothing older depended on their absence.
  }
}
