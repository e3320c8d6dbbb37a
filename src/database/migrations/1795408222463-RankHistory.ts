import { MigrationInterface, QueryRunner } from "typeorm";

export class RankHistory1795408222463 implements MigrationInterface {
    name = 'RankHistory1795408222463'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "account_best_ranks" ("account_id" integer NOT NULL, "leaderboard" text NOT NULL, "ranks" integer array NOT NULL, CONSTRAINT "PK_f8096eeb0d9083cb9fddcf8000d" PRIMARY KEY ("account_id", "leaderboard"))`);
        await queryRunner.query(`CREATE TABLE "account_rank_history" ("account_id" integer NOT NULL, "leaderboard" text NOT NULL, "day" date NOT NULL, "rank" integer NOT NULL, "score" bigint NOT NULL, CONSTRAINT "PK_79dc81b335deef9eeaacbb6cb44" PRIMARY KEY ("account_id", "leaderboard", "day"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "account_rank_history"`);
        await queryRunner.query(`DROP TABLE "account_best_ranks"`);
    }

}
