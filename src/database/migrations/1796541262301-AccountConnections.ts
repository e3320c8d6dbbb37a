import { MigrationInterface, QueryRunner } from "typeorm";

export class AccountConnections1796541262301 implements MigrationInterface {
    name = 'AccountConnections1796541262301'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "account_connections" ("connection_id" text NOT NULL, "account_id" integer NOT NULL, "provider" text NOT NULL, "external_id" text NOT NULL, "name" text NOT NULL, "avatar" text NOT NULL, "hidden" boolean NOT NULL DEFAULT false, "verified" boolean NOT NULL, "failed" boolean NOT NULL DEFAULT false, "verification_code" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "verified_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_70cf9cbf4f9a1ac403f2c236fb4" PRIMARY KEY ("connection_id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_account_connections_external" ON "account_connections"  ("provider", "external_id") WHERE provider <> 'domain'`);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_account_connections_domain" ON "account_connections"  ("account_id", "external_id") WHERE provider = 'domain'`);
        await queryRunner.query(`CREATE UNIQUE INDEX "ux_account_connections_provider" ON "account_connections"  ("account_id", "provider") WHERE provider <> 'domain'`);
        await queryRunner.query(`CREATE INDEX "ix_account_connections_account" ON "account_connections"  ("account_id", "created_at") `);
        await queryRunner.query(`ALTER TABLE "account_connections" ADD CONSTRAINT "FK_e75c9d03e74dd5a9152f66ba34c" FOREIGN KEY ("account_id") REFERENCES "accounts"("account_id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "account_connections" DROP CONSTRAINT "FK_e75c9d03e74dd5a9152f66ba34c"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_connections_account"`);
        await queryRunner.query(`DROP INDEX "public"."ux_account_connections_provider"`);
        await queryRunner.query(`DROP INDEX "public"."ux_account_connections_domain"`);
        await queryRunner.query(`DROP INDEX "public"."ux_account_connections_external"`);
        await queryRunner.query(`DROP TABLE "account_connections"`);
    }

}
