CREATE TABLE "execution_fills" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"venue_trade_id" text NOT NULL,
	"symbol" text NOT NULL,
	"side" text NOT NULL,
	"amount" numeric(30, 10) NOT NULL,
	"price" numeric(30, 10) NOT NULL,
	"fee_cost" numeric(30, 10) NOT NULL,
	"fee_currency" text NOT NULL,
	"fee_quote" numeric(30, 10) NOT NULL,
	"filled_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "execution_orders" ALTER COLUMN "status" SET DEFAULT 'created';--> statement-breakpoint
ALTER TABLE "execution_orders" ADD COLUMN "send_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "execution_orders" ADD COLUMN "lookup_misses" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "execution_orders" ADD COLUMN "first_miss_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "execution_fills" ADD CONSTRAINT "execution_fills_account_id_exchange_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."exchange_accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_fills" ADD CONSTRAINT "execution_fills_order_id_execution_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."execution_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "execution_fills_trade_unique" ON "execution_fills" USING btree ("account_id","venue_trade_id");--> statement-breakpoint
CREATE INDEX "execution_fills_order_idx" ON "execution_fills" USING btree ("order_id");--> statement-breakpoint
-- The order state machine's names for the states the core kept before.
UPDATE "execution_orders" SET "status" = CASE "status"
  WHEN 'pending' THEN 'created'
  WHEN 'unknown' THEN 'in_doubt'
  WHEN 'open' THEN 'accepted'
  WHEN 'failed' THEN 'rejected'
  ELSE "status" END;--> statement-breakpoint
-- Orders settled before the ledger: one fill each, at the order's average price.
INSERT INTO "execution_fills" ("account_id", "order_id", "venue_trade_id", "symbol", "side", "amount", "price", "fee_cost", "fee_currency", "fee_quote", "filled_at", "created_at")
SELECT "account_id", "id", 'legacy:' || "id", "symbol", "side", "filled_amount", COALESCE("average_price", 0), COALESCE("fee", 0), 'USDT', COALESCE("fee", 0), "updated_at", "updated_at"
FROM "execution_orders" WHERE "filled_amount" > 0;
