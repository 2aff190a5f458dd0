ALTER TABLE "copy_relations" ADD COLUMN "leader_equity_trough" numeric(30, 10);--> statement-breakpoint
-- The lowest equity known so far of the relations that exist: the lower of the start and the last.
UPDATE "copy_relations" SET "leader_equity_trough" = LEAST("leader_equity_start", "leader_equity_last");--> statement-breakpoint
ALTER TABLE "copy_relations" ALTER COLUMN "leader_equity_trough" SET NOT NULL;
