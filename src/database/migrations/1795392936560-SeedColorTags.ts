import { MigrationInterface, QueryRunner } from 'typeorm';

/** The colour vocabulary of badge tagging (data, not schema: written by hand). */
const COLORS: [id: string, name: string, hex: string, hsl: string][] = [
  ['col_red', 'Red', '#E53935', 'hsl(1, 77%, 56%)'],
  ['col_orange', 'Orange', '#FB8C00', 'hsl(33, 100%, 49%)'],
  ['col_yellow', 'Yellow', '#FDD835', 'hsl(54, 98%, 60%)'],
  ['col_green', 'Green', '#43A047', 'hsl(123, 41%, 45%)'],
  ['col_teal', 'Teal', '#00897B', 'hsl(174, 100%, 27%)'],
  ['col_blue', 'Blue', '#1E88E5', 'hsl(208, 79%, 51%)'],
  ['col_purple', 'Purple', '#8E24AA', 'hsl(287, 65%, 40%)'],
  ['col_pink', 'Pink', '#D81B60', 'hsl(338, 78%, 48%)'],
  ['col_brown', 'Brown', '#6D4C41', 'hsl(15, 25%, 34%)'],
  ['col_black', 'Black', '#212121', 'hsl(0, 0%, 13%)'],
  ['col_white', 'White', '#FAFAFA', 'hsl(0, 0%, 98%)'],
  ['col_gray', 'Gray', '#9E9E9E', 'hsl(0, 0%, 62%)'],
];

export class SeedColorTags1795392936560 implements MigrationInterface {
  name = 'SeedColorTags1795392936560';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [id, name, hex, hsl] of COLORS) {
      await queryRunner.query(
        `INSERT INTO "tags" ("id", "kind", "name", "name_key", "hex", "hsl", "color_group", "group_owner")
         VALUES ($1, 'color', $2, $3, $4, $5, $3, true) ON CONFLICT DO NOTHING`,
        [id, name, name.toLowerCase(), JSON.stringify([hex]), hsl],
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "tags" WHERE "id" = ANY($1)`, [COLORS.map(([id]) => id)]);
  }
}
