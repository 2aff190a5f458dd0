ALTER TABLE "execution_fills" DROP CONSTRAINT "execution_fills_order_id_execution_orders_id_fk";
--> statement-breakpoint
DROP INDEX "execution_fills_order_idx";--> statement-breakpoint
DROP INDEX "execution_orders_owner_idx";--> statement-breakpoint
DROP INDEX "execution_orders_account_status_idx";--> statement-breakpoint
CREATE INDEX "execution_orders_owner_live_idx" ON "execution_orders" USING btree ("owner_kind","owner_id") WHERE status in ('created', 'sending', 'in_doubt', 'accepted', 'partially_filled');--> statement-breakpoint
CREATE INDEX "execution_orders_account_live_idx" ON "execution_orders" USING btree ("account_id") WHERE status in ('created', 'sending', 'in_doubt', 'accepted', 'partially_filled');