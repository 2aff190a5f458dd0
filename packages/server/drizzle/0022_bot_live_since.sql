ALTER TABLE "bots" ADD COLUMN "live_since" timestamp with time zone;--> statement-breakpoint
-- Bots started before this column existed: their live period counts from their creation.
UPDATE "bots" SET "live_since" = "created_at" WHERE "status" <> 'created';
