CREATE TABLE "comment_likes" (
	"comment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "comment_likes_comment_id_user_id_pk" PRIMARY KEY("comment_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "strategy_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"parent_id" integer,
	"content" text NOT NULL,
	"likes_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "strategy_comments_content_check" CHECK (char_length("strategy_comments"."content") between 1 and 500),
	CONSTRAINT "strategy_comments_likes_check" CHECK ("strategy_comments"."likes_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "strategy_metrics" (
	"account_id" integer NOT NULL,
	"period" text NOT NULL,
	"user_id" integer NOT NULL,
	"exchange" text NOT NULL,
	"name" text NOT NULL,
	"search_name" text GENERATED ALWAYS AS (lower(name)) STORED NOT NULL,
	"is_public" boolean NOT NULL,
	"published_at" timestamp with time zone,
	"balance" numeric(30, 10) NOT NULL,
	"total_return_percent" double precision NOT NULL,
	"return_percent" double precision NOT NULL,
	"pnl" numeric(30, 10) NOT NULL,
	"max_drawdown" double precision NOT NULL,
	"win_rate" double precision,
	"sharpe_ratio" double precision,
	"sortino_ratio" double precision,
	"trades_count" integer NOT NULL,
	"copiers_count" integer NOT NULL,
	"copier_pnl" double precision DEFAULT 0 NOT NULL,
	"copy_efficiency" double precision DEFAULT 0 NOT NULL,
	"days_of_history" double precision NOT NULL,
	"is_new" boolean NOT NULL,
	"rank_win_rate" double precision,
	"rank_sharpe" double precision,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "strategy_metrics_account_id_period_pk" PRIMARY KEY("account_id","period")
);
--> statement-breakpoint
CREATE TABLE "strategy_positions" (
	"account_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" integer NOT NULL,
	"size" numeric(30, 10) NOT NULL,
	"entry_price" numeric(30, 10),
	"last_entry_price" numeric(30, 10),
	"updated_at_ms" bigint NOT NULL,
	CONSTRAINT "strategy_positions_account_id_symbol_owner_kind_owner_id_pk" PRIMARY KEY("account_id","symbol","owner_kind","owner_id")
);
--> statement-breakpoint
CREATE TABLE "strategy_share_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"accept_copy" boolean DEFAULT true NOT NULL,
	"show_trades" boolean DEFAULT true NOT NULL,
	"show_positions" boolean DEFAULT true NOT NULL,
	"allow_comments" boolean DEFAULT true NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"copiers_count" integer DEFAULT 0 NOT NULL,
	"total_copy_earnings" numeric(30, 10) DEFAULT '0' NOT NULL,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "strategy_share_settings_copiers_check" CHECK ("strategy_share_settings"."copiers_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "strategy_sparklines" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"points" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "strategy_trades" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"amount" numeric(30, 10) NOT NULL,
	"price" numeric(30, 10) NOT NULL,
	"fee" numeric(30, 10) NOT NULL,
	"realized_pnl" numeric(30, 10),
	"exchange_order_id" text NOT NULL,
	"filled_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "strategy_wallet_marks" (
	"account_id" integer NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"equity" numeric(30, 10) NOT NULL,
	"unrealized_pnl" numeric(30, 10) NOT NULL,
	"realized_pnl_cum" numeric(30, 10) NOT NULL,
	CONSTRAINT "strategy_wallet_marks_account_id_taken_at_pk" PRIMARY KEY("account_id","taken_at")
);
--> statement-breakpoint
CREATE TABLE "user_follows" (
	"follower_id" integer NOT NULL,
	"followee_id" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "user_follows_follower_id_followee_id_pk" PRIMARY KEY("follower_id","followee_id"),
	CONSTRAINT "user_follows_not_self" CHECK ("user_follows"."follower_id" <> "user_follows"."followee_id")
);
--> statement-breakpoint
ALTER TABLE "comment_likes" ADD CONSTRAINT "comment_likes_comment_id_strategy_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."strategy_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_likes" ADD CONSTRAINT "comment_likes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_comments" ADD CONSTRAINT "strategy_comments_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_comments" ADD CONSTRAINT "strategy_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_comments" ADD CONSTRAINT "strategy_comments_parent_id_strategy_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."strategy_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_metrics" ADD CONSTRAINT "strategy_metrics_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_metrics" ADD CONSTRAINT "strategy_metrics_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_positions" ADD CONSTRAINT "strategy_positions_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_share_settings" ADD CONSTRAINT "strategy_share_settings_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_share_settings" ADD CONSTRAINT "strategy_share_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_sparklines" ADD CONSTRAINT "strategy_sparklines_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_trades" ADD CONSTRAINT "strategy_trades_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "strategy_wallet_marks" ADD CONSTRAINT "strategy_wallet_marks_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_follows" ADD CONSTRAINT "user_follows_follower_id_users_id_fk" FOREIGN KEY ("follower_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_follows" ADD CONSTRAINT "user_follows_followee_id_users_id_fk" FOREIGN KEY ("followee_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "strategy_comments_account_idx" ON "strategy_comments" USING btree ("account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "strategy_comments_parent_idx" ON "strategy_comments" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "strategy_comments_user_time_idx" ON "strategy_comments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "strategy_metrics_copiers_idx" ON "strategy_metrics" USING btree ("period","copiers_count" DESC NULLS LAST,"account_id" DESC NULLS LAST) WHERE "strategy_metrics"."is_public";--> statement-breakpoint
CREATE INDEX "strategy_metrics_return_idx" ON "strategy_metrics" USING btree ("period","return_percent" DESC NULLS LAST,"account_id" DESC NULLS LAST) WHERE "strategy_metrics"."is_public";--> statement-breakpoint
CREATE INDEX "strategy_metrics_latest_idx" ON "strategy_metrics" USING btree ("period","published_at" DESC NULLS LAST,"account_id" DESC NULLS LAST) WHERE "strategy_metrics"."is_public";--> statement-breakpoint
CREATE INDEX "strategy_metrics_win_rate_idx" ON "strategy_metrics" USING btree ("period","rank_win_rate" DESC NULLS LAST,"account_id" DESC NULLS LAST) WHERE "strategy_metrics"."is_public";--> statement-breakpoint
CREATE INDEX "strategy_metrics_sharpe_idx" ON "strategy_metrics" USING btree ("period","rank_sharpe" DESC NULLS LAST,"account_id" DESC NULLS LAST) WHERE "strategy_metrics"."is_public";--> statement-breakpoint
CREATE INDEX "strategy_metrics_user_idx" ON "strategy_metrics" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "strategy_share_settings_user_idx" ON "strategy_share_settings" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "strategy_trades_event_idx" ON "strategy_trades" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "strategy_trades_account_time_idx" ON "strategy_trades" USING btree ("account_id","filled_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "strategy_trades_account_order_idx" ON "strategy_trades" USING btree ("account_id","exchange_order_id");--> statement-breakpoint
CREATE INDEX "user_follows_followee_idx" ON "user_follows" USING btree ("followee_id");