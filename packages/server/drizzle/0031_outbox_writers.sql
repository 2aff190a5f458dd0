CREATE TABLE "event_writers" (
	"writer" text PRIMARY KEY NOT NULL,
	"beat_at" timestamp with time zone NOT NULL,
	"published_through" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_outbox" ADD COLUMN "more" jsonb;--> statement-breakpoint
ALTER TABLE "event_outbox" ADD COLUMN "writer" text;--> statement-breakpoint
-- Events an older version left unpublished become a departed writer's: the relay publishes them.
UPDATE "event_outbox" SET "writer" = 'before-writers' WHERE "published_at" IS NULL;--> statement-breakpoint
INSERT INTO "event_writers" ("writer", "beat_at", "published_through")
	SELECT 'before-writers', 'epoch'::timestamptz, min("id") FROM "event_outbox" WHERE "published_at" IS NULL
	HAVING count(*) > 0;--> statement-breakpoint
DROP INDEX "event_outbox_unpublished_idx";--> statement-breakpoint
ALTER TABLE "event_outbox" DROP COLUMN "published_at";
