CREATE TABLE "execution_leverages" (
	"account_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"leverage" integer NOT NULL,
	"set_at" timestamp with time zone NOT NULL,
	CONSTRAINT "execution_leverages_account_id_symbol_pk" PRIMARY KEY("account_id","symbol")
);
--> statement-breakpoint
CREATE TABLE "execution_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"client_order_id" text NOT NULL,
	"action" text NOT NULL,
	"side" text NOT NULL,
	"type" text NOT NULL,
	"time_in_force" text,
	"amount" numeric(30, 10) NOT NULL,
	"price" numeric(30, 10),
	"trigger_price" numeric(30, 10),
	"reduce_only" boolean DEFAULT false NOT NULL,
	"position_side" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"exchange_order_id" text,
	"filled_amount" numeric(30, 10),
	"average_price" numeric(30, 10),
	"fee" numeric(30, 10),
	"realized_pnl" numeric(30, 10),
	"error" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "execution_positions" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"symbol" text NOT NULL,
	"owner_kind" text NOT NULL,
	"owner_id" integer NOT NULL,
	"size" numeric(30, 10) DEFAULT '0' NOT NULL,
	"entry_price" numeric(30, 10) DEFAULT '0' NOT NULL,
	"entry_fee" numeric(30, 10) DEFAULT '0' NOT NULL,
	"realized_pnl" numeric(30, 10) DEFAULT '0' NOT NULL,
	"opened_at" timestamp with time zone,
	"stop_loss" numeric(30, 10),
	"take_profit" numeric(30, 10),
	"stop_loss_order_id" text,
	"take_profit_order_id" text,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_leases" (
	"resource" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "paper_orders" ADD COLUMN "checked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "paper_orders" ADD COLUMN "filled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "execution_leverages" ADD CONSTRAINT "execution_leverages_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_orders" ADD CONSTRAINT "execution_orders_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_positions" ADD CONSTRAINT "execution_positions_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "execution_orders_client_id_unique" ON "execution_orders" USING btree ("account_id","client_order_id");--> statement-breakpoint
CREATE INDEX "execution_orders_owner_idx" ON "execution_orders" USING btree ("owner_kind","owner_id","status");--> statement-breakpoint
CREATE INDEX "execution_orders_account_status_idx" ON "execution_orders" USING btree ("account_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "execution_positions_owner_unique" ON "execution_positions" USING btree ("account_id","symbol","owner_kind","owner_id");--> statement-breakpoint
CREATE INDEX "execution_positions_owner_idx" ON "execution_positions" USING btree ("owner_kind","owner_id");--> statement-breakpoint
CREATE INDEX "worker_leases_holder_idx" ON "worker_leases" USING btree ("holder");--> statement-breakpoint
CREATE INDEX "paper_orders_resting_idx" ON "paper_orders" USING btree ("account_id","status");