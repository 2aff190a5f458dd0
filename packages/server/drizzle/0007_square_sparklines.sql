CREATE TABLE "strategy_sparklines" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"points" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "strategy_sparklines" ADD CONSTRAINT "strategy_sparklines_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_metrics" DROP COLUMN "sparkline";