CREATE TABLE "bot_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"bot_id" integer NOT NULL,
	"client_order_id" text NOT NULL,
	"candle_time_ms" bigint NOT NULL,
	"action" text NOT NULL,
	"side" text NOT NULL,
	"amount" numeric(30, 10) NOT NULL,
	"reduce_only" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"exchange_order_id" text,
	"filled_amount" numeric(30, 10),
	"average_price" numeric(30, 10),
	"fee" numeric(30, 10),
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_positions" (
	"id" serial PRIMARY KEY NOT NULL,
	"bot_id" integer NOT NULL,
	"side" text NOT NULL,
	"amount" numeric(30, 10) NOT NULL,
	"entry_price" numeric(30, 10) NOT NULL,
	"entry_fee" numeric(30, 10) DEFAULT '0' NOT NULL,
	"stop_loss" numeric(30, 10),
	"take_profit" numeric(30, 10),
	"stop_loss_order_id" text,
	"take_profit_order_id" text,
	"opened_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bot_trades" (
	"id" serial PRIMARY KEY NOT NULL,
	"bot_id" integer NOT NULL,
	"side" text NOT NULL,
	"amount" numeric(30, 10) NOT NULL,
	"entry_price" numeric(30, 10) NOT NULL,
	"exit_price" numeric(30, 10) NOT NULL,
	"pnl" numeric(30, 10) NOT NULL,
	"fee" numeric(30, 10) NOT NULL,
	"reason" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bots" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"exchange_account_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"timeframe" text NOT NULL,
	"strategy_type" text NOT NULL,
	"strategy_parameters" jsonb NOT NULL,
	"trade_amount" numeric(30, 10) NOT NULL,
	"stop_loss_percentage" numeric(10, 4),
	"take_profit_percentage" numeric(10, 4),
	"status" text DEFAULT 'created' NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"last_trade_at" timestamp with time zone,
	"last_candle_time_ms" bigint,
	"total_trades" integer DEFAULT 0 NOT NULL,
	"winning_trades" integer DEFAULT 0 NOT NULL,
	"losing_trades" integer DEFAULT 0 NOT NULL,
	"total_profit_loss" numeric(30, 10) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"bot_id" integer,
	"type" text NOT NULL,
	"bot_symbol" text,
	"message" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bot_orders" ADD CONSTRAINT "bot_orders_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_positions" ADD CONSTRAINT "bot_positions_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bot_trades" ADD CONSTRAINT "bot_trades_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_exchange_account_id_exchange_accounts_id_fk" FOREIGN KEY ("exchange_account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_logs" ADD CONSTRAINT "operation_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_logs" ADD CONSTRAINT "operation_logs_bot_id_bots_id_fk" FOREIGN KEY ("bot_id") REFERENCES "public"."bots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bot_orders_client_order_id_unique" ON "bot_orders" USING btree ("client_order_id");--> statement-breakpoint
CREATE INDEX "bot_orders_bot_idx" ON "bot_orders" USING btree ("bot_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "bot_positions_bot_unique" ON "bot_positions" USING btree ("bot_id");--> statement-breakpoint
CREATE INDEX "bot_trades_bot_idx" ON "bot_trades" USING btree ("bot_id","closed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bots_account_symbol_unique" ON "bots" USING btree ("exchange_account_id","symbol");--> statement-breakpoint
CREATE INDEX "bots_user_idx" ON "bots" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "bots_status_idx" ON "bots" USING btree ("status");--> statement-breakpoint
CREATE INDEX "operation_logs_user_created_idx" ON "operation_logs" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "operation_logs_bot_idx" ON "operation_logs" USING btree ("bot_id");