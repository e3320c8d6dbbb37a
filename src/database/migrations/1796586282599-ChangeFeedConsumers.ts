import { MigrationInterface, QueryRunner } from "typeorm";

export class ChangeFeedConsumers1796586282599 implements MigrationInterface {
    name = 'ChangeFeedConsumers1796586282599'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "change_feed_consumers" ("name" text NOT NULL, "xid" bigint NOT NULL, "id" bigint NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8f9c76d5ba8a0410904b2c01220" PRIMARY KEY ("name"))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP TABLE "change_feed_consumers"`);
    }

}
