ALTER TABLE "strategy_metrics" ALTER COLUMN "copy_efficiency" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "strategy_metrics" ALTER COLUMN "copy_efficiency" DROP NOT NULL;--> statement-breakpoint
-- Strategies nobody copied were given 0 (the metrics job writes null for them from now on).
UPDATE "strategy_metrics" SET "copy_efficiency" = NULL WHERE "copy_efficiency" = 0 AND "copiers_count" = 0;
