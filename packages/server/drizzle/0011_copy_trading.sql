CREATE TABLE "copy_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"relation_id" integer NOT NULL,
	"change_key" text NOT NULL,
	"symbol" text NOT NULL,
	"leader_size" numeric(30, 10) NOT NULL,
	"leader_size_delta" numeric(30, 10) NOT NULL,
	"leader_price" numeric(30, 10),
	"leader_filled_at" timestamp with time zone NOT NULL,
	"target_size" numeric(30, 10) NOT NULL,
	"follower_size_delta" numeric(30, 10),
	"follower_price" numeric(30, 10),
	"slippage_bps" double precision,
	"delay_ms" integer,
	"status" text NOT NULL,
	"miss_reason" text,
	"error_kind" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"relation_pnl" numeric(30, 10),
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "copy_relations" (
	"id" serial PRIMARY KEY NOT NULL,
	"follower_user_id" integer NOT NULL,
	"follower_account_id" integer NOT NULL,
	"leader_user_id" integer NOT NULL,
	"leader_account_id" integer NOT NULL,
	"copy_amount" numeric(30, 10) NOT NULL,
	"max_loss" numeric(30, 10),
	"copy_mode" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"stop_reason" text,
	"fee_paid" numeric(30, 10) NOT NULL,
	"max_slippage_percent" double precision,
	"leader_drawdown_limit_percent" double precision,
	"entry_distance_percent" double precision NOT NULL,
	"leader_equity_base" numeric(30, 10) NOT NULL,
	"leader_equity_start" numeric(30, 10) NOT NULL,
	"leader_equity_peak" numeric(30, 10) NOT NULL,
	"leader_equity_last" numeric(30, 10) NOT NULL,
	"leader_start_book" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"total_profit_loss" numeric(30, 10) DEFAULT '0' NOT NULL,
	"total_copied_trades" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "copy_relations_amount_check" CHECK ("copy_relations"."copy_amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "copy_receipts" ADD CONSTRAINT "copy_receipts_relation_id_copy_relations_id_fk" FOREIGN KEY ("relation_id") REFERENCES "public"."copy_relations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_relations" ADD CONSTRAINT "copy_relations_follower_user_id_users_id_fk" FOREIGN KEY ("follower_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_relations" ADD CONSTRAINT "copy_relations_follower_account_id_exchange_accounts_id_fk" FOREIGN KEY ("follower_account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_relations" ADD CONSTRAINT "copy_relations_leader_user_id_users_id_fk" FOREIGN KEY ("leader_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "copy_relations" ADD CONSTRAINT "copy_relations_leader_account_id_exchange_accounts_id_fk" FOREIGN KEY ("leader_account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "copy_receipts_relation_change_idx" ON "copy_receipts" USING btree ("relation_id","change_key");--> statement-breakpoint
CREATE INDEX "copy_receipts_relation_created_idx" ON "copy_receipts" USING btree ("relation_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "copy_relations_follower_leader_idx" ON "copy_relations" USING btree ("follower_account_id","leader_account_id") WHERE "copy_relations"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "copy_relations_leader_idx" ON "copy_relations" USING btree ("leader_account_id");--> statement-breakpoint
CREATE INDEX "copy_relations_follower_user_idx" ON "copy_relations" USING btree ("follower_user_id");--> statement-breakpoint
CREATE INDEX "copy_relations_leader_user_idx" ON "copy_relations" USING btree ("leader_user_id");