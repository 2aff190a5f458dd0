CREATE TABLE "balance_snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"equity" numeric(30, 10) NOT NULL,
	"daily_pnl" numeric(30, 10) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exchange_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"exchange" text NOT NULL,
	"account_type" text NOT NULL,
	"is_testnet" boolean DEFAULT false NOT NULL,
	"is_paper" boolean DEFAULT false NOT NULL,
	"position_mode" text NOT NULL,
	"default_leverage" integer NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"api_key_encrypted" text,
	"api_secret_encrypted" text,
	"api_password_encrypted" text,
	"api_key_masked" text,
	"paper_balance" numeric(30, 10),
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_fills" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"amount" numeric(30, 10) NOT NULL,
	"price" numeric(30, 10) NOT NULL,
	"fee" numeric(30, 10) NOT NULL,
	"realized_pnl" numeric(30, 10) NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_leverages" (
	"account_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"leverage" integer NOT NULL,
	CONSTRAINT "paper_leverages_account_id_symbol_pk" PRIMARY KEY("account_id","symbol")
);
--> statement-breakpoint
CREATE TABLE "paper_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"client_order_id" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"amount" numeric(30, 10) NOT NULL,
	"filled" numeric(30, 10) NOT NULL,
	"average_price" numeric(30, 10),
	"price" numeric(30, 10),
	"trigger_price" numeric(30, 10),
	"reduce_only" boolean NOT NULL,
	"position_side" text,
	"fee" numeric(30, 10) NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paper_positions" (
	"account_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"amount" numeric(30, 10) NOT NULL,
	"entry_price" numeric(30, 10) NOT NULL,
	"leverage" integer NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "paper_positions_account_id_symbol_side_pk" PRIMARY KEY("account_id","symbol","side")
);
--> statement-breakpoint
ALTER TABLE "balance_snapshots" ADD CONSTRAINT "balance_snapshots_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_accounts" ADD CONSTRAINT "exchange_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_fills" ADD CONSTRAINT "paper_fills_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_fills" ADD CONSTRAINT "paper_fills_order_id_paper_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."paper_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_leverages" ADD CONSTRAINT "paper_leverages_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD CONSTRAINT "paper_orders_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_positions" ADD CONSTRAINT "paper_positions_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "balance_snapshots_account_taken_idx" ON "balance_snapshots" USING btree ("account_id","taken_at");--> statement-breakpoint
CREATE INDEX "exchange_accounts_user_idx" ON "exchange_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "paper_fills_account_symbol_idx" ON "paper_fills" USING btree ("account_id","symbol","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "paper_orders_client_id_idx" ON "paper_orders" USING btree ("account_id","client_order_id");