import { MigrationInterface, QueryRunner } from "typeorm";

export class AppCardCounts1795496533340 implements MigrationInterface {
    name = 'AppCardCounts1795496533340'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "app_card_counts" ("app_id" integer NOT NULL, "classes" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_d60df16b51cfbe4902eee5bee5d" PRIMARY KEY ("app_id"))`);
        // Data, not schema: the counts of the classes already kept, so an upgraded database serves `cardCount` at once.
        await queryRunner.query(`INSERT INTO "app_card_counts" ("app_id", "classes") SELECT "app_id", count(*) FROM "app_card_classes" WHERE "owners" > 0 GROUP BY "app_id"`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "app_card_counts"`);
    }

}
