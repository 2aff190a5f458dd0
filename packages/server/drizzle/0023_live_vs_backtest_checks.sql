CREATE TABLE "bot_live_comparisons" (
	"bot_id" integer PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"live_days" double precision NOT NULL,
	"delta_pct" double precision NOT NULL,
	"live_return_pct" double precision NOT NULL,
	"backtest_return_pct" double precision NOT NULL,
	"trade_amount" numeric(30, 10) NOT NULL,
	"answer" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "strategy_metrics" ADD COLUMN "live_days" double precision;--> statement-breakpoint
ALTER TABLE "strategy_metrics" ADD COLUMN "live_delta_pct" double precision;--> statement-breakpoint
ALTER TABLE "strategy_metrics" ADD COLUMN "live_delta_abs" double precision;--> statement-breakpoint
ALTER TABLE "strategy_metrics" ADD COLUMN "live_return_pct" double precision;--> statement-breakpoint
ALTER TABLE "strategy_metrics" ADD COLUMN "backtest_return_pct" double precision;--> statement-breakpoint
ALTER TABLE "bot_live_comparisons" ADD CONSTRAINT "bot_live_comparisons_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_live_comparisons" ADD CONSTRAINT "bot_live_comparisons_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bot_live_comparisons_account_idx" ON "bot_live_comparisons" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "strategy_metrics_live_delta_idx" ON "strategy_metrics" USING btree ("period","live_delta_abs","account_id" DESC NULLS LAST) WHERE "strategy_metrics"."is_public";