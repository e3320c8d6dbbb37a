import { MigrationInterface, QueryRunner } from "typeorm";

export class StaffAuditHistoryResources1796553651281 implements MigrationInterface {
    name = 'StaffAuditHistoryResources1796553651281'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "account_history" ("id" BIGSERIAL NOT NULL, "account_id" integer NOT NULL, "kind" text NOT NULL, "old" jsonb, "new" jsonb, "changed_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_de0652296aa9d641c6269104b98" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_account_history_account" ON "account_history"  ("account_id", "kind", "id") `);
        await queryRunner.query(`CREATE TABLE "account_resources" ("account_id" integer NOT NULL, "resource" text NOT NULL, "value" text NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_15b05f50f7720567e633a72f307" PRIMARY KEY ("account_id", "resource"))`);
        await queryRunner.query(`CREATE TABLE "audit_log" ("id" BIGSERIAL NOT NULL, "actor_account_id" integer, "via" text NOT NULL, "action" text NOT NULL, "target_account_id" integer, "target_id" text, "before" jsonb, "after" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_07fefa57f7f5ab8fc3f52b3ed0b" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "ix_audit_log_target" ON "audit_log"  ("target_account_id", "id") `);
        await queryRunner.query(`CREATE INDEX "ix_account_roles_role" ON "account_roles"  ("role", "account_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."ix_account_roles_role"`);
        await queryRunner.query(`DROP INDEX "public"."ix_audit_log_target"`);
        await queryRunner.query(`DROP TABLE "audit_log"`);
        await queryRunner.query(`DROP TABLE "account_resources"`);
        await queryRunner.query(`DROP INDEX "public"."ix_account_history_account"`);
        await queryRunner.query(`DROP TABLE "account_history"`);
    }

}
