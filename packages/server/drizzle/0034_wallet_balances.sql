CREATE TABLE "wallet_balances" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"balance" numeric(20, 8) DEFAULT '0' NOT NULL,
	CONSTRAINT "wallet_balances_non_negative" CHECK ("wallet_balances"."balance" >= 0)
);
--> statement-breakpoint
ALTER TABLE "wallet_balances" ADD CONSTRAINT "wallet_balances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Every balance moves to the wallet's table before the column goes.
INSERT INTO "wallet_balances" ("user_id", "balance") SELECT "id", "platform_balance" FROM "users";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_platform_balance_non_negative";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "platform_balance";