CREATE TABLE "staff_decisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" integer NOT NULL,
	"staff_user_id" integer NOT NULL,
	"action" text NOT NULL,
	"from_status" text NOT NULL,
	"to_status" text NOT NULL,
	"reason" text,
	"tx_hash" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"direction" text NOT NULL,
	"amount" numeric(20, 8) NOT NULL,
	"fee" numeric(20, 8) DEFAULT '0' NOT NULL,
	"status" text NOT NULL,
	"business_key" text NOT NULL,
	"network" text,
	"tx_hash" text,
	"is_offchain" boolean DEFAULT false NOT NULL,
	"offchain_reference" text,
	"address" text,
	"note" text,
	"counterparty_user_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "wallet_transactions_amount_positive" CHECK ("wallet_transactions"."amount" > 0),
	CONSTRAINT "wallet_transactions_fee_range" CHECK ("wallet_transactions"."fee" >= 0 and "wallet_transactions"."fee" <= "wallet_transactions"."amount"),
	CONSTRAINT "wallet_transactions_direction_of_type" CHECK (("wallet_transactions"."type" in ('deposit', 'referral_bonus', 'copy_earning') and "wallet_transactions"."direction" = 'credit') or ("wallet_transactions"."type" in ('withdraw', 'vip_purchase', 'bot_fee', 'copy_fee') and "wallet_transactions"."direction" = 'debit') or "wallet_transactions"."type" = 'adjustment')
);
--> statement-breakpoint
ALTER TABLE "staff_decisions" ADD CONSTRAINT "staff_decisions_transaction_id_wallet_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."wallet_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_decisions" ADD CONSTRAINT "staff_decisions_staff_user_id_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_transactions" ADD CONSTRAINT "wallet_transactions_counterparty_user_id_users_id_fk" FOREIGN KEY ("counterparty_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_decisions_transaction_status_idx" ON "staff_decisions" USING btree ("transaction_id","to_status");--> statement-breakpoint
CREATE INDEX "staff_decisions_staff_idx" ON "staff_decisions" USING btree ("staff_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_transactions_business_key_idx" ON "wallet_transactions" USING btree ("business_key");--> statement-breakpoint
CREATE INDEX "wallet_transactions_user_idx" ON "wallet_transactions" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "wallet_transactions_queue_idx" ON "wallet_transactions" USING btree ("type","status","id");--> statement-breakpoint
CREATE INDEX "users_invited_by_idx" ON "users" USING btree ("invited_by");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_platform_balance_non_negative" CHECK ("users"."platform_balance" >= 0);